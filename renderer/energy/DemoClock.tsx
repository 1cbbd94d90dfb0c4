import { formatTime } from '../kit/format.js';
import { useServerClock } from './server-clock.js';

/**
 * Shown only when the bridge says its clock is not real time (the demo's day runs faster): the
 * time on its clock and the speed, so charts, ages and estimates read against the right clock.
 */
export function DemoClockBadge({ now }: { now: number }) {
  const clock = useServerClock();
  if (!clock?.demo) return null;
  return (
    <span className="badge demo-clock" data-testid="demo-clock" title={`Demo: the simulated day runs ${clock.speed}× faster than real time; every time on these pages is on this clock.`}>
      Demo clock {formatTime(now).slice(0, 5)} · {clock.speed}× speed
    </span>
  );
}
