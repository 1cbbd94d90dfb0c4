/**
 * fetcharr's timestamps, as its store holds them: knex `fn.now()` writes SQLite's CURRENT_TIMESTAMP
 * (`2026-11-25 04:47:18`, UTC without a zone), its own code writes `new Date().toISOString()`, and a
 * JS Date bound through better-sqlite3 would be epoch ms. Returns epoch ms, or null when absent or
 * unreadable.
 */
export function fetcharrTime(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const sqlite = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(text);
  const ms = sqlite ? Date.parse(`${sqlite[1]}T${sqlite[2]}Z`) : /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(text) ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? ms : null;
}
