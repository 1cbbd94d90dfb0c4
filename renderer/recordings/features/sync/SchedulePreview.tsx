import { serverNow, useServerClock } from '../../../kit/server-clock.js';
import { formatInZone } from '../../format.js';
import { describeCron, nextRuns } from './cron.js';

/** Plain words and the next three run times of a cron expression, in the service's time zone. */
export function SchedulePreview({ cron, tz }: { cron: string; tz: string }) {
  // From the service's clock: the same next runs as the service's schedule, in the demo too.
  useServerClock();
  const runs = nextRuns(cron, tz, serverNow());
  const words = describeCron(cron);
  if (runs.length === 0) {
    return (
      <p className="small muted" data-testid="cron-preview">
        Not a schedule this page can read; the service checks it when you save (5 fields: minute hour day month weekday).
      </p>
    );
  }
  return (
    <div className="small" data-testid="cron-preview" aria-live="polite">
      <span>
        {words ? `Runs ${words}. ` : ''}Next runs ({tz}):
      </span>
      <ol className="next-runs">
        {runs.map((t) => (
          <li key={t}>{formatInZone(new Date(t).toISOString(), tz)}</li>
        ))}
      </ol>
    </div>
  );
}
