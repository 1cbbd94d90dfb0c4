import { formatKwh, formatMoney } from '../../kit/format.js';
import type { Snapshot } from '../types.js';

/** Today's energy and, when a tariff is configured, today's cost. */
export function EnergyToday({ energy, tariff }: { energy: Snapshot['energy']; tariff: Snapshot['tariff'] }) {
  const lt = energy.lifetime;
  return (
    <div className="live">
      <div className="stat-value" data-testid="consumed-today">
        {formatKwh(energy.consumedToday, 1)}
      </div>
      <div className="stat-label">Used at home today</div>
      {tariff && (
        <div data-testid="tariff">
          <h3>Cost today</h3>
          <dl className="pairs">
            <dt>Net</dt>
            <dd>
              <strong>{formatMoney(tariff.today.net, tariff.currency)}</strong>
            </dd>
            <dt>Import</dt>
            <dd>{formatMoney(tariff.today.importCost, tariff.currency)}</dd>
            <dt>Feed-in</dt>
            <dd>{formatMoney(tariff.today.feedIn, tariff.currency)}</dd>
            {tariff.today.superExportCredit !== 0 && (
              <>
                <dt>Super-export credit</dt>
                <dd>{formatMoney(tariff.today.superExportCredit, tariff.currency)}</dd>
              </>
            )}
            {(tariff.today.zeroDrawCredit !== 0 || tariff.today.zeroDrawMet) && (
              <>
                <dt>Zero-draw credit</dt>
                <dd>{formatMoney(tariff.today.zeroDrawCredit, tariff.currency)}</dd>
              </>
            )}
            <dt>Supply</dt>
            <dd>{formatMoney(tariff.today.supply, tariff.currency)}</dd>
            {tariff.netPerHour !== null && (
              <>
                <dt>Right now</dt>
                <dd>
                  {formatMoney(Math.abs(tariff.netPerHour), tariff.currency)}/h {tariff.netPerHour >= 0 ? 'credit' : 'cost'}
                </dd>
              </>
            )}
          </dl>
        </div>
      )}
      <h3>Lifetime</h3>
      <dl className="pairs small">
        <dt>Solar produced</dt>
        <dd>{formatKwh(lt.pv, 0)}</dd>
        <dt>Home used</dt>
        <dd>{formatKwh(lt.consumed, 0)}</dd>
        <dt>Grid import / export</dt>
        <dd>
          {formatKwh(lt.gridImport, 0)} / {formatKwh(lt.gridExport, 0)}
        </dd>
        <dt>Battery in / out</dt>
        <dd>
          {formatKwh(lt.batteryCharge, 0)} / {formatKwh(lt.batteryDischarge, 0)}
        </dd>
      </dl>
    </div>
  );
}
