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

/** "9:42 am AEDT" in the zone, ticking each second boundary so the minute turns on time. */
export function useClockText(tz: string | undefined, now: () => number = Date.now): string {
  const [t, setT] = useState(now);
  useEffect(() => {
    const id = setInterval(() => setT(now()), 1000);
    return () => clearInterval(id);
  }, [now]);
  return clockFormat(tz).format(new Date(t));
}

/**
 * The header's right side, shared by both services: what the service is doing (a status chip) and
 * the clock with its time zone. The energy pages can pass their own status (connected or not) and
 * the same clock; the chip is a polite live region so a change is announced once.
 */
export function HeaderStatus({ status, timeZone, now }: HeaderStatusProps) {
  const clock = useClockText(timeZone, now);
  return (
    <div className="header-status" data-testid="header-status">
      {status && (
        <span className={`status-chip${status.busy ? ' busy' : ''}`} role="status" title={status.title} data-testid="header-sync-status">
          <span className="dot" aria-hidden="true" />
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
