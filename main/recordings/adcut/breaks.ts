/** A commercial break or a kept stretch, in seconds from the start of the recording. */
export interface Span {
  start: number;
  end: number;
}

/** An EDL larger than this is not a real comskip output: it is refused, never read whole. */
export const EDL_MAX_BYTES = 256 * 1024;
const MAX_BREAKS = 2000;

/**
 * Parses comskip's edit list: lines `start<TAB>end<TAB>type` in seconds. Blank lines are skipped;
 * any other malformed line makes the whole list unusable (throws), as does an oversized one.
 */
export function parseEdl(text: string): Span[] {
  if (Buffer.byteLength(text) > EDL_MAX_BYTES) throw new Error('edit list too large');
  const out: Span[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)(?:\s+(\d+))?$/.exec(line);
    if (!m) throw new Error(`unreadable edit-list line: ${line.slice(0, 80)}`);
    const start = Number(m[1]);
    const end = Number(m[2]);
    if (end > start) out.push({ start, end });
    if (out.length > MAX_BREAKS) throw new Error('edit list has too many entries');
  }
  return out;
}

/** Breaks clamped to [0, duration], empty ones dropped, sorted, overlapping or touching ones merged. */
export function mergeBreaks(breaks: readonly Span[], duration: number): Span[] {
  const clamped = breaks
    .map((b) => ({ start: Math.max(0, Math.min(duration, b.start)), end: Math.max(0, Math.min(duration, b.end)) }))
    .filter((b) => b.end > b.start)
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const b of clamped) {
    const last = merged[merged.length - 1];
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else merged.push({ ...b });
  }
  return merged;
}

/** The stretches to keep: the complement of the merged, clamped breaks within [0, duration]. */
export function keepSegments(breaks: readonly Span[], duration: number): Span[] {
  const keep: Span[] = [];
  let pos = 0;
  for (const b of mergeBreaks(breaks, duration)) {
    if (b.start > pos) keep.push({ start: pos, end: b.start });
    pos = b.end;
  }
  if (duration > pos) keep.push({ start: pos, end: duration });
  return keep;
}

/** Cut points inside the recording (a break at the very start or end has only one). */
export function boundaryCount(breaks: readonly Span[], duration: number): number {
  let n = 0;
  for (const b of mergeBreaks(breaks, duration)) {
    if (b.start > 0) n++;
    if (b.end < duration) n++;
  }
  return n;
}

/** Verification tolerance of the spec: max(5, 2 x boundaries) seconds. */
export function verifyToleranceSeconds(boundaries: number): number {
  return Math.max(5, 2 * boundaries);
}

export const totalSeconds = (spans: readonly Span[]) => spans.reduce((s, x) => s + (x.end - x.start), 0);
