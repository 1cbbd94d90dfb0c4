import { useEffect, useState } from 'react';
import { serverNow, useServerClock } from '../kit/server-clock.js';

/** Hours and minutes in the reader's own 12/24-hour habit: "2:41 PM" stays "2:41 PM", "14:41" stays "14:41". */
export function formatClockTime(t: number, locale?: string): string {
  return new Date(t).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
}

/**
 * Shown only when the bridge says its clock is not real time (the demo's day runs faster): the
 * time on its clock and the speed, so charts, ages and estimates read against the right clock. It
 * appears only once the bridge's clock is read, and keeps its own second tick, so it never shows
 * this device's time, not even for the first seconds of a page that refreshes less often.
 */
export function DemoClockBadge() {
  const clock = useServerClock();
  // A tick only to re-render: the time shown is read from the bridge's clock at each render.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!clock?.demo) return;
    const t = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [clock]);
  if (!clock?.demo) return null;
  return (
    <span className="badge demo-clock" data-testid="demo-clock" title={`Demo: the simulated day runs ${clock.speed}× faster than real time; every time on these pages is on this clock.`}>
      Demo clock {formatClockTime(serverNow())} · {clock.speed}× speed
    </span>
  );
}
