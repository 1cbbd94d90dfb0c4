import { formatDuration, formatKwh, formatPercent, formatPower } from '../../kit/format.js';
import { formatClockTime } from '../DemoClock.js';
import { fullAtText } from '../savings/day-ahead-words.js';
import type { Snapshot } from '../types.js';

/**
 * Time to full or empty. Charging, with The day ahead's outlook at hand, it is the outlook's figure
 * (usual load and the solar forecast), not the one the charge rate of this minute gives: the page
 * shows one estimate, not two that disagree.
 */
function estimateText(b: Snapshot['battery'], outlookBattery: NonNullable<Snapshot['outlook']>['battery'] | undefined): string {
  const e = b.estimate;
  if (outlookBattery && (b.direction === 'charge' || (e.status === 'ready' && e.target === 'full'))) return fullAtText(outlookBattery);
  if (e.status === 'warming') return 'Estimating time remaining…';
  if (e.status !== 'ready') return 'Holding steady';
  const target = e.target === 'full' ? 'Full' : e.target === 'reserve' ? 'Reserve' : 'Empty';
  if (e.minutesRemaining === null || e.minutesRemaining === undefined) return `${target} in more than 24 h`;
  return `${target} in ${formatDuration(e.minutesRemaining)}${e.etaIso ? ` (at ${formatClockTime(new Date(e.etaIso).getTime())})` : ''}`;
}

/**
 * Energy stored, on the same capacity the page shows: the gateway's own figure is on its rated
 * capacity, so with a capacity set in Settings (16 kWh against a rated 16.12) it is the state of
 * charge of that capacity, and never more than it ("16.1 kWh of 16.0 kWh" cannot happen).
 */
export function storedKwh(b: Pick<Snapshot['battery'], 'soc' | 'capacityKwh' | 'energyRemainingKwh'>): number | null {
  if (b.capacityKwh === null || b.capacityKwh === undefined) return b.energyRemainingKwh;
  if (b.soc !== null && b.soc !== undefined) return (Math.min(100, Math.max(0, b.soc)) / 100) * b.capacityKwh;
  return b.energyRemainingKwh === null ? null : Math.min(b.energyRemainingKwh, b.capacityKwh);
}

/** Battery ring with state of charge, reserve mark and the time-to-full/empty estimate. */
export function BatteryGauge({ battery, power, outlook }: { battery: Snapshot['battery']; power: number | null; outlook?: Snapshot['outlook'] }) {
  const soc = battery.soc ?? 0;
  const r = 52;
  const c = 2 * Math.PI * r;
  const reserveAngle = ((battery.reserveSoc ?? 0) / 100) * 360 - 90;
  const rx = 64 + r * Math.cos((reserveAngle * Math.PI) / 180);
  const ry = 64 + r * Math.sin((reserveAngle * Math.PI) / 180);
  const direction = battery.direction === 'charge' ? 'Charging' : battery.direction === 'discharge' ? 'Discharging' : 'Idle';
  return (
    <div className="gauge live">
      <svg width="128" height="128" viewBox="0 0 128 128" role="img" aria-label={`Battery ${formatPercent(battery.soc)}`}>
        <circle cx="64" cy="64" r={r} fill="none" stroke="var(--border)" strokeWidth="12" />
        <circle
          cx="64"
          cy="64"
          r={r}
          fill="none"
          stroke={soc <= (battery.reserveSoc ?? 0) ? 'var(--grid)' : 'var(--battery)'}
          strokeWidth="12"
          strokeDasharray={`${(soc / 100) * c} ${c}`}
          transform="rotate(-90 64 64)"
          strokeLinecap="butt"
        />
        {battery.reserveSoc !== null && <circle cx={rx} cy={ry} r="5" fill="var(--warn-text)" stroke="var(--surface)" strokeWidth="2" />}
        <text x="64" y="70" textAnchor="middle" fontSize="22" fontWeight="700" fill="var(--text)">
          {formatPercent(battery.soc)}
        </text>
      </svg>
      <div>
        <div className="stat-value" data-testid="battery-soc">
          {formatPercent(battery.soc)}
        </div>
        <div className="flow-dir">
          {direction} {power !== null && battery.direction !== 'idle' ? formatPower(power) : ''}
        </div>
        <div data-testid="battery-estimate">{estimateText(battery, outlook?.battery)}</div>
        <dl className="pairs small">
          <dt>Reserve</dt>
          <dd data-testid="battery-reserve">{formatPercent(battery.reserveSoc)}</dd>
          <dt>Stored</dt>
          <dd>
            {formatKwh(storedKwh(battery), 1)} of {formatKwh(battery.capacityKwh, 1)}
          </dd>
          {battery.estimate.status === 'ready' && battery.estimate.energyToGoKwh !== undefined && (
            <>
              <dt>To go</dt>
              <dd>{formatKwh(battery.estimate.energyToGoKwh, 1)}</dd>
            </>
          )}
          <dt>Health</dt>
          <dd>{formatPercent(battery.soh)}</dd>
        </dl>
      </div>
    </div>
  );
}
