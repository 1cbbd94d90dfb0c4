import type { Db } from '../../core/sqlite.js';

/** The ad-removal outcomes MQTT and metrics count (a recording that is marked counts as a cut does). */
export const AD_OUTCOMES = ['marked', 'cut', 'no_breaks', 'detect_failed', 'mark_failed', 'cut_failed'] as const;
export type AdOutcome = (typeof AD_OUTCOMES)[number];

/** Recordings in the library (not purged) by ad-removal outcome, every outcome present (0 when none). */
export function adOutcomeCounter(db: Db): () => Record<AdOutcome, number> {
  const byStatus = db.prepare('SELECT ad_status AS status, COUNT(*) AS n FROM recordings WHERE purged_at IS NULL GROUP BY ad_status');
  return () => {
    const rows = byStatus.all() as Array<{ status: string; n: number }>;
    return Object.fromEntries(AD_OUTCOMES.map((o) => [o, rows.find((r) => r.status === o)?.n ?? 0])) as Record<AdOutcome, number>;
  };
}
