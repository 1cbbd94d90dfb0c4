import { formatDateTime, formatPercent, formatSignedPower } from '../../kit/format.js';
import { SERIES, type ChartPoint, type SeriesKey } from './chart-data.js';

interface Props {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: ChartPoint }>;
  visible: Set<SeriesKey>;
  showSoc?: boolean;
}

/** The hover read-out: the bucket's time, each series' mean and its min–max. */
export function Readout({ active, payload, visible, showSoc }: Props) {
  const p = payload?.[0]?.payload;
  if (!active || !p) return null;
  return (
    <div className="tooltip" data-testid="readout">
      <strong>{formatDateTime(p.t)}</strong>
      {showSoc ? (
        <div>Battery {formatPercent(p.soc)}</div>
      ) : (
        SERIES.filter((s) => visible.has(s.key)).map((s) => {
          const band = p[`${s.key}Band`];
          return (
            <div key={s.key} style={{ color: s.color }}>
              {s.label} {formatSignedPower(p[s.key] ?? null)}
              {band ? (
                <span className="muted">
                  {' '}
                  ({formatSignedPower(band[0])} … {formatSignedPower(band[1])})
                </span>
              ) : null}
            </div>
          );
        })
      )}
    </div>
  );
}
