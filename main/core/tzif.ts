/**
 * Time-zone rules from a compiled tz database file (TZif, RFC 8536), as the system keeps them in
 * /usr/share/zoneinfo, and from the POSIX TZ string at its end that covers every instant after
 * its last transition. Offsets are in ms, local wall clock minus UTC.
 *
 * Why not Intl: the first `Intl.DateTimeFormat` pages in about 6 MB of ICU locale data and keeps
 * ~2 MB more on the heap for as long as the process lives, for what is, here, one number per instant.
 */

export interface ZoneRules {
  /** Transition instants (ms), ascending. */
  at: Float64Array;
  /** The offset in force from `at[i]` on. */
  offset: Float64Array;
  /** The offset before the first transition (time type 0). */
  initial: number;
  /** The rule after the last transition, when the file has one. */
  tail: PosixRule | null;
}

/** A POSIX TZ rule: a standard offset and, optionally, a daylight offset with its yearly start and end. */
export interface PosixRule {
  std: number;
  dst: { offset: number; start: YearPoint; end: YearPoint } | null;
}

/** A day of the year (Jn, n or Mm.w.d) and a time on it (seconds, may be negative or past 24 h). */
interface YearPoint {
  kind: 'julian' | 'zeroBased' | 'monthWeekDay';
  day: number;
  month: number;
  week: number;
  weekday: number;
  seconds: number;
}

/** Files larger than this are not time-zone files (the largest in tzdata is under 5 kB). */
export const TZIF_MAX_BYTES = 256 * 1024;

/** Parses a TZif file; throws on anything that is not one. Leap-second ("right/") files are refused. */
export function parseTzif(bytes: Uint8Array): ZoneRules {
  if (bytes.length < 44 || bytes.length > TZIF_MAX_BYTES) throw new Error('not a TZif file (size)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = (at: number) => {
    if (String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!) !== 'TZif') throw new Error('not a TZif file (magic)');
    const count = (i: number) => view.getUint32(at + 20 + 4 * i);
    return { version: bytes[at + 4]!, isut: count(0), isstd: count(1), leap: count(2), time: count(3), type: count(4), chars: count(5) };
  };
  const first = header(0);
  const blockSize = (h: ReturnType<typeof header>, timeBytes: number) =>
    h.time * timeBytes + h.time + h.type * 6 + h.chars + h.leap * (timeBytes + 4) + h.isstd + h.isut;
  let h = first;
  let pos = 44;
  let timeBytes = 4;
  if (first.version >= 0x32) {
    // Version 2+: skip the 32-bit block; the 64-bit one after a second header is authoritative.
    pos += blockSize(first, 4);
    if (pos + 44 > bytes.length) throw new Error('not a TZif file (truncated)');
    h = header(pos);
    pos += 44;
    timeBytes = 8;
  }
  if (h.leap > 0) throw new Error('leap-second zone files are not supported');
  if (h.type === 0 || h.type > 256 || pos + blockSize(h, timeBytes) > bytes.length) throw new Error('not a TZif file (counts)');

  const at = new Float64Array(h.time);
  for (let i = 0; i < h.time; i++) {
    const s = timeBytes === 8 ? Number(view.getBigInt64(pos + 8 * i)) : view.getInt32(pos + 4 * i);
    at[i] = s * 1000;
  }
  pos += h.time * timeBytes;
  const typeOf = bytes.subarray(pos, pos + h.time);
  pos += h.time;
  const typeOffset: number[] = [];
  for (let i = 0; i < h.type; i++) typeOffset.push(view.getInt32(pos + 6 * i) * 1000);
  pos += h.type * 6 + h.chars + h.isstd + h.isut;
  const offset = new Float64Array(h.time);
  for (let i = 0; i < h.time; i++) {
    const type = typeOf[i]!;
    if (type >= h.type) throw new Error('not a TZif file (type index)');
    offset[i] = typeOffset[type]!;
  }

  let tail: PosixRule | null = null;
  if (timeBytes === 8 && bytes[pos] === 0x0a) {
    const end = bytes.indexOf(0x0a, pos + 1);
    if (end < 0) throw new Error('not a TZif file (footer)');
    const text = String.fromCharCode(...bytes.subarray(pos + 1, end));
    if (text) tail = parsePosixTz(text);
  }
  return { at, offset, initial: typeOffset[0]!, tail };
}

/** The offset (ms) in force at instant `t` (ms). */
export function offsetAt(rules: ZoneRules, t: number): number {
  const { at } = rules;
  if (at.length === 0 || t < at[0]!) return at.length === 0 && rules.tail ? posixOffsetAt(rules.tail, t) : rules.initial;
  if (t >= at[at.length - 1]! && rules.tail) return posixOffsetAt(rules.tail, t);
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (at[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return rules.offset[lo]!;
}

// --- POSIX TZ strings ("AEST-10AEDT,M10.1.0,M4.1.0/3", "<+0530>-5:30", "EST5EDT,M3.2.0,M11.1.0") ---

/** Parses a POSIX TZ string (as in a TZif footer); throws on a malformed one. */
export function parsePosixTz(text: string): PosixRule {
  let i = 0;
  const fail = (): never => {
    throw new Error(`not a POSIX TZ string: ${JSON.stringify(text.slice(0, 64))}`);
  };
  const name = () => {
    if (text[i] === '<') {
      const close = text.indexOf('>', i);
      if (close < 0) fail();
      i = close + 1;
      return;
    }
    const from = i;
    while (i < text.length && /[A-Za-z]/.test(text[i]!)) i++;
    if (i - from < 3) fail();
  };
  /** [+|-]hh[:mm[:ss]] as seconds. */
  const clock = (): number => {
    let sign = 1;
    if (text[i] === '+' || text[i] === '-') sign = text[i++] === '-' ? -1 : 1;
    const m = /^(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(text.slice(i));
    if (!m) return fail();
    i += m[0].length;
    return sign * (Number(m[1]) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0));
  };
  const point = (): YearPoint => {
    const p: YearPoint = { kind: 'zeroBased', day: 0, month: 0, week: 0, weekday: 0, seconds: 7200 };
    let m: RegExpExecArray | null;
    if ((m = /^M(\d{1,2})\.(\d)\.(\d)/.exec(text.slice(i)))) {
      Object.assign(p, { kind: 'monthWeekDay', month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]) });
      if (p.month < 1 || p.month > 12 || p.week < 1 || p.week > 5 || p.weekday > 6) fail();
    } else if ((m = /^J(\d{1,3})/.exec(text.slice(i)))) {
      Object.assign(p, { kind: 'julian', day: Number(m[1]) });
      if (p.day < 1 || p.day > 365) fail();
    } else if ((m = /^(\d{1,3})/.exec(text.slice(i)))) {
      p.day = Number(m[1]);
      if (p.day > 365) fail();
    } else fail();
    i += m![0].length;
    if (text[i] === '/') {
      i++;
      p.seconds = clock();
    }
    return p;
  };

  name();
  // POSIX offsets count west of Greenwich as positive: UTC+10 is written -10.
  const std = 0 - clock() * 1000; // never -0
  if (i === text.length) return { std, dst: null };
  name();
  let dstOffset = std + 3_600_000;
  if (i < text.length && text[i] !== ',') dstOffset = 0 - clock() * 1000;
  if (text[i] !== ',') fail();
  i++;
  const start = point();
  if (text[i] !== ',') fail();
  i++;
  const end = point();
  if (i !== text.length) fail();
  return { std, dst: { offset: dstOffset, start, end } };
}

const DAY = 86_400_000;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The wall-clock instant (as if UTC, ms) of a rule point in year `y`. */
function wallOf(p: YearPoint, y: number): number {
  const jan1 = Date.UTC(y, 0, 1);
  let day: number;
  if (p.kind === 'julian') day = jan1 + (p.day - 1 + (isLeap(y) && p.day >= 60 ? 1 : 0)) * DAY;
  else if (p.kind === 'zeroBased') day = jan1 + p.day * DAY;
  else {
    const first = Date.UTC(y, p.month - 1, 1);
    const firstWeekday = new Date(first).getUTCDay();
    let date = 1 + ((p.weekday - firstWeekday + 7) % 7) + (p.week - 1) * 7;
    const daysInMonth = new Date(Date.UTC(y, p.month, 0)).getUTCDate();
    while (date > daysInMonth) date -= 7;
    day = Date.UTC(y, p.month - 1, date);
  }
  return day + p.seconds * 1000;
}

/** The offset a POSIX rule gives at instant `t`. */
export function posixOffsetAt(rule: PosixRule, t: number): number {
  const { dst } = rule;
  if (!dst) return rule.std;
  const y = new Date(t + rule.std).getUTCFullYear();
  // The start is written in standard time, the end in daylight time.
  const start = wallOf(dst.start, y) - rule.std;
  const end = wallOf(dst.end, y) - dst.offset;
  const inDst = start < end ? t >= start && t < end : t >= start || t < end;
  return inDst ? dst.offset : rule.std;
}
