import { useEffect, useState } from 'react';

export interface HeaderStatusProps {
  /** What the service is doing now, e.g. "Idle" or "Syncing"; `busy` shows it as live. */
  status: { text: string; busy: boolean; title?: string } | null;
  /** IANA time zone the service reads times in (its `tz`); the browser's when absent. */
  timeZone?: string;
  /** The service's time now (a demo clock may differ from the browser's); default Date.now. */
  now?: () => number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function clockFormat(tz: string | undefined): Intl.DateTimeFormat {
  const key = tz ?? '';
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: tz, timeZoneName: 'short' });
    } catch {
      f = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * The time `now` gives, read again each second (the clock's "9:42 am AEDT" turns its minute on time),
 * and how many seconds have ticked (`n`).
 */
function useSecondTick(now: () => number): { t: number; n: number } {
  const [tick, setTick] = useState(() => ({ t: now(), n: 0 }));
  useEffect(() => {
    const id = setInterval(() => setTick((p) => ({ t: now(), n: p.n + 1 })), 1000);
    return () => clearInterval(id);
  }, [now]);
  return tick;
}

/**
 * The header's right side, shared by both services: what the service is doing (a status chip) and
 * the clock with its time zone. The energy pages can pass their own status (connected or not) and
 * the same clock; the chip is a polite live region so a change is announced once.
 */
export function HeaderStatus({ status, timeZone, now = Date.now }: HeaderStatusProps) {
  const tick = useSecondTick(now);
  const clock = clockFormat(timeZone).format(new Date(tick.t));
  return (
    <div className="header-status" data-testid="header-status">
      {status && (
        <span className={`status-chip${status.busy ? ' busy' : ''}`} role="status" title={status.title} data-testid="header-sync-status">
          {/* A busy dot blinks on the clock's second tick: one small repaint a second, where an
              infinite CSS animation had the browser draw a frame at every screen refresh. */}
          <span className={`dot${status.busy && tick.n % 2 === 1 ? ' dim' : ''}`} aria-hidden="true" />
          {status.text}
        </span>
      )}
      <time className="header-clock" data-testid="header-clock" title={timeZone ? `Time in ${timeZone}` : 'Local time'}>
        {clock}
        {timeZone && <span className="header-tz"> · {timeZone}</span>}
      </time>
    </div>
  );
}
