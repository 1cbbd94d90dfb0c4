/**
 * sigen-home-bridge prices imports and exports with two separate lists of daily windows
 * (`{ start, end, rate }`, the first match wins, an end before the start wraps past midnight, an end
 * equal to the start never matches) over fallback rates. This bridge has one list of windows, each
 * with an import price and an optional feed-in credit, which may not overlap. The day is cut at
 * every window edge; each piece covered by either list becomes a window with the rates sigen would
 * have used there, and neighbouring pieces with the same rates are joined again (across midnight
 * too), so every minute of the day is priced as before.
 */
export interface SigenRateWindow {
  start: string;
  end: string;
  rate: number;
}

export interface OurWindow {
  name: string;
  start: string;
  end: string;
  days: Array<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun'>;
  importRate: number;
  feedInRate: number | null;
}

const DAY = 1440;
const ALL_DAYS: OurWindow['days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Minutes since midnight of `H:MM` or `HH:MM`; null when not a time of day. */
export function clockMinutes(v: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(v.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/** `HH:MM` of a minute of the day (1440 is midnight, `00:00`). */
export const hhmm = (minute: number): string => `${String(Math.floor((minute % DAY) / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

function covers(w: SigenRateWindow, minute: number): boolean {
  const from = clockMinutes(w.start);
  const to = clockMinutes(w.end);
  if (from === null || to === null || from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

interface Piece {
  from: number;
  to: number;
  importRate: number;
  feedInRate: number | null;
  kind: string;
}

export function convertWindows(opts: { importWindows: SigenRateWindow[]; exportWindows: SigenRateWindow[]; importRate: number }): OurWindow[] {
  const edges = new Set<number>([0]);
  for (const w of [...opts.importWindows, ...opts.exportWindows]) {
    for (const v of [w.start, w.end]) {
      const m = clockMinutes(v);
      if (m !== null) edges.add(m);
    }
  }
  const sorted = [...edges].sort((a, b) => a - b);
  const pieces: Piece[] = [];
  sorted.forEach((from, i) => {
    const to = sorted[i + 1] ?? DAY;
    const imp = opts.importWindows.find((w) => covers(w, from));
    const exp = opts.exportWindows.find((w) => covers(w, from));
    if (!imp && !exp) return;
    const piece: Piece = { from, to, importRate: imp ? imp.rate : opts.importRate, feedInRate: exp ? exp.rate : null, kind: imp && exp ? 'Import and export' : imp ? 'Import' : 'Export' };
    const last = pieces.at(-1);
    if (last && last.to === from && last.importRate === piece.importRate && last.feedInRate === piece.feedInRate && last.kind === piece.kind) last.to = to;
    else pieces.push(piece);
  });
  // A piece running to midnight joins one starting at midnight with the same rates (a wrapped window).
  if (pieces.length > 1) {
    const first = pieces[0]!;
    const last = pieces.at(-1)!;
    if (first.from === 0 && last.to === DAY && first.importRate === last.importRate && first.feedInRate === last.feedInRate && first.kind === last.kind) {
      last.to = DAY + first.to;
      pieces.shift();
    }
  }
  return pieces.map((p) => {
    const start = hhmm(p.from);
    const end = hhmm(p.to);
    return { name: `${p.kind} ${start}–${end}`, start, end, days: [...ALL_DAYS], importRate: p.importRate, feedInRate: p.feedInRate };
  });
}
