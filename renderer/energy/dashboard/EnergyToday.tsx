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
      {tariff && <CostToday tariff={tariff} />}
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

const ZERO_DRAW_TEXT: Record<string, string> = {
  notStarted: 'window not started yet',
  soFar: 'so far within the limit (credited once the window ends)',
  met: 'met',
  missed: 'missed today',
  noData: 'not enough readings in the window',
};

/** Cost today: the net figure, with the breakdown one click away. */
function CostToday({ tariff }: { tariff: NonNullable<Snapshot['tariff']> }) {
  const t = tariff.today;
  const c = tariff.currency;
  return (
    <div data-testid="tariff">
      <h3>Cost today</h3>
      <details data-testid="cost-details">
        <summary>
          <span className="stat-value" data-testid="cost-net">
            {t.net < 0 ? `${formatMoney(-t.net, c)} cost` : `${formatMoney(t.net, c)} credit`}
          </span>{' '}
          <span className="small muted">net · show breakdown</span>
        </summary>
        <dl className="pairs">
          <dt>Import</dt>
          <dd data-testid="cost-import">
            {formatMoney(t.importCost, c)} <span className="muted small">({formatKwh(t.importKwh, 2)})</span>
          </dd>
          <dt>Feed-in credit</dt>
          <dd>
            {formatMoney(t.feedIn, c)} <span className="muted small">({formatKwh(t.exportKwh, 2)} exported)</span>
          </dd>
          {(t.superExportCredit !== 0 || t.superExportKwh !== 0) && (
            <>
              <dt>Super-export credit</dt>
              <dd>
                {formatMoney(t.superExportCredit, c)} <span className="muted small">({formatKwh(t.superExportKwh, 2)})</span>
              </dd>
            </>
          )}
          {t.zeroDrawStatus !== 'off' && (
            <>
              <dt>Zero-draw credit</dt>
              <dd data-testid="zero-draw">
                {formatMoney(t.zeroDrawCredit, c)} <span className="muted small">({ZERO_DRAW_TEXT[t.zeroDrawStatus] ?? t.zeroDrawStatus}; {formatKwh(t.zeroDrawImportKwh, 3)} drawn in the window)</span>
              </dd>
            </>
          )}
          <dt>Daily supply</dt>
          <dd>{formatMoney(t.supply, c)}</dd>
        </dl>
      </details>
      {tariff.netPerHour !== null && (
        <p className="small muted" data-testid="cost-rate">
          Right now: {formatMoney(Math.abs(tariff.netPerHour), c)}/h {tariff.netPerHour >= 0 ? 'credit' : 'cost'}
        </p>
      )}
    </div>
  );
}
