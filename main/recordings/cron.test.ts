import cron from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { intlOffset, type ZoneOffset } from '../core/time-zone.js';
import { nextRun, parseCron } from './cron.js';

/** node-cron's own next runs after `from`: what the scheduler ran before cron.ts. */
function nodeCronRuns(expr: string, tz: string, from: number, count: number): number[] {
  vi.useFakeTimers({ toFake: ['Date'], now: from });
  try {
    const task = cron.createTask(expr, () => {}, { timezone: tz });
    const runs = task.getNextRuns(count).map((d) => d.getTime());
    void task.destroy();
    return runs;
  } finally {
    vi.useRealTimers();
  }
}

/**
 * Both sides read the zone from ICU (node-cron formats through Intl): the comparison is of the cron
 * rules, and the system's tz database may be another release than Node's ICU. ICU is asked at the
 * ends of a day, then of an hour, and only inside an hour whose ends differ at the minute (a zone
 * changes its clocks months apart, so equal ends mean no change between them, and on a whole minute).
 */
const icuOffsets = new Map<string, ZoneOffset>();
function icuOffset(tz: string): ZoneOffset {
  let cached = icuOffsets.get(tz);
  if (!cached) {
    const exact = intlOffset(tz);
    const known = new Map<number, number>();
    const at = (t: number) => known.get(t) ?? known.set(t, exact(t)).get(t)!;
    const steady = (t: number, span: number) => {
      const start = Math.floor(t / span) * span;
      return at(start) === at(start + span) ? at(start) : null;
    };
    cached = (t) => steady(t, 86_400_000) ?? steady(t, 3_600_000) ?? at(Math.floor(t / 60_000) * 60_000);
    icuOffsets.set(tz, cached);
  }
  return cached;
}

function ourRuns(expr: string, tz: string, from: number, count: number): number[] {
  const spec = parseCron(expr)!;
  const out: number[] = [];
  let t = from;
  for (let i = 0; i < count; i++) out.push((t = nextRun(spec, t, icuOffset(tz))!));
  return out;
}

const iso = (ts: number[]) => ts.map((t) => new Date(t).toISOString());

/** Whether the zone turns its clocks back within 3 h of `t`: where cron.ts and node-cron differ on purpose. */
function nearFallBack(t: number, tz: string): boolean {
  const offset = icuOffset(tz);
  return offset(t - 3 * 3_600_000) > offset(t + 3 * 3_600_000);
}

describe('cron next runs against node-cron', () => {
  afterEach(() => vi.useRealTimers());

  const expressions = [
    '*/30 * * * *',
    '0 3 * * *',
    '15 2 * * *',
    '30 1 * * *',
    '0 */6 * * *',
    '0 0 1 * *',
    '0 0 31 * *',
    '0 0 29 2 *',
    '0 9 * * mon-fri',
    '0 9 * * MON,wed,Fri',
    '0 18 * * 7',
    '0 8 13 * 5', // both day fields: node-cron needs both (Friday the 13th), not either
    '*/20 * * * * *',
    '5,35 22-2 * * *', // a range that wraps midnight
    '0 0 * jan,jul *',
    '0 12 ? * sun',
    '@daily',
    '@weekly',
    '@hourly',
    '0 0 1 1 *',
    '0 30 2 * * *', // inside Europe's and the US's spring-forward hour and fall-back hour
    '0 2 * 3,10,11 0',
    '0 9 * * 7-1', // weekday ranges through Sunday, either way round
    '0 9 * * 5-7',
    '0 9 * * sun-sat',
    '0 0 * * 6-2',
  ];
  const zones = ['UTC', 'Australia/Sydney', 'Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Sao_Paulo'];
  // Starts just before the 2026 daylight-saving switches of these zones and on ordinary days.
  const starts = ['2026-03-07T12:00:00Z', '2026-03-28T20:00:00Z', '2026-04-04T10:00:00Z', '2026-10-03T12:00:00Z', '2026-10-24T22:00:00Z', '2026-10-31T20:00:00Z', '2026-12-31T23:59:59.500Z', '2027-02-27T00:00:00Z'].map(Date.parse);

  it.each(zones)('gives the same next runs in %s for every expression and start, away from a fall-back hour', (tz) => {
    const diffs: string[] = [];
    let compared = 0;
    for (const expr of expressions) {
      for (const from of starts) {
        const theirs = nodeCronRuns(expr, tz, from, 6);
        const ours = ourRuns(expr, tz, from, 12).filter((t) => t <= theirs.at(-1)!);
        const away = (ts: number[]) => iso(ts.filter((t) => !nearFallBack(t, tz)));
        compared += away(theirs).length;
        if (JSON.stringify(away(ours)) !== JSON.stringify(away(theirs))) diffs.push(`${expr} from ${new Date(from).toISOString()}: ours ${iso(ours).join(' ')} node-cron ${iso(theirs).join(' ')}`);
      }
    }
    expect(diffs).toEqual([]);
    expect(compared).toBeGreaterThan(expressions.length * starts.length * 5);
  });

  it('spring forward: wall times the jump skips do not run, the rest of the night does (as node-cron)', () => {
    // London, 29 March 2026: 01:00 GMT jumps to 02:00 BST (01:00 UTC).
    const from = Date.parse('2026-03-29T00:58:30Z');
    expect(iso(ourRuns('*/30 * * * * *', 'Europe/London', from, 4))).toEqual(['2026-03-29T00:59:00.000Z', '2026-03-29T00:59:30.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T01:00:30.000Z']);
    expect(iso(ourRuns('30 1 * * *', 'Europe/London', Date.parse('2026-03-28T12:00:00Z'), 2))).toEqual(['2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z']);
    for (const [expr, tz, at] of [['* * * * * *', 'Europe/London', '2026-03-29T00:59:30Z'], ['0 */15 * * * *', 'Australia/Lord_Howe', '2026-10-03T15:00:00Z']] as const) {
      expect(iso(ourRuns(expr, tz, Date.parse(at), 60)), `${expr} ${tz}`).toEqual(iso(nodeCronRuns(expr, tz, Date.parse(at), 60)));
    }
  });

  it('fall back: an every-hour schedule keeps its real-time pace through the repeated hour; a fixed time runs once, on the first pass', () => {
    // London, 25 October 2026: 02:00 BST goes back to 01:00 GMT (01:00 UTC), so 01:00-01:59 happens twice.
    expect(iso(ourRuns('*/30 * * * *', 'Europe/London', Date.parse('2026-10-24T23:10:00Z'), 5))).toEqual([
      '2026-10-24T23:30:00.000Z',
      '2026-10-25T00:00:00.000Z', // 01:00 BST
      '2026-10-25T00:30:00.000Z', // 01:30 BST
      '2026-10-25T01:00:00.000Z', // 01:00 GMT
      '2026-10-25T01:30:00.000Z', // 01:30 GMT
    ]);
    expect(iso(ourRuns('30 1 * * *', 'Europe/London', Date.parse('2026-10-24T12:00:00Z'), 2))).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // New York, 1 November 2026: 02:00 EDT goes back to 01:00 EST (06:00 UTC).
    expect(iso(ourRuns('30 1 * * *', 'America/New_York', Date.parse('2026-10-31T12:00:00Z'), 2))).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    // Every second straight through the switch: no second of real time is skipped or run twice.
    const runs = ourRuns('* * * * * *', 'Europe/London', Date.parse('2026-10-25T00:59:30Z'), 90);
    expect(runs.every((t, i) => t === Date.parse('2026-10-25T00:59:31Z') + i * 1000)).toBe(true);
  });
});

describe('cron expressions cron.ts reads itself', () => {
  it('reads nicknames, names, 7 as Sunday and steps over ranges; leaves L, W and # to node-cron', () => {
    const s = parseCron('0 9 * * 5-7')!;
    expect(s.weekdays.flatMap((on, d) => (on ? [d] : []))).toEqual([0, 5, 6]);
    expect(parseCron('@yearly')).toEqual(parseCron('0 0 1 1 *'));
    expect(parseCron('0 0 1-10/3 * *')!.days.flatMap((on, d) => (on ? [d] : []))).toEqual([1, 4, 7, 10]);
    for (const rare of ['0 0 L * *', '0 0 15W * *', '0 0 * * 5#3', '0 0 * * 5L']) {
      expect(cron.validate(rare), rare).toBe(true);
      expect(parseCron(rare), rare).toBeNull();
    }
  });

  it('a date that never comes (30 February) has no next run instead of a search without end', () => {
    expect(nextRun(parseCron('0 0 30 2 *')!, Date.UTC(2026, 0, 1), () => 0)).toBeNull();
  });

  it('refuses what is not an expression', () => {
    for (const bad of ['', 'every tuesday', '61 * * * *', '* * *', '0 0 32 * *', '0 0 * 13 *', '*/0 * * * *', '1,,2 * * * *', '5/10 * * * *']) expect(parseCron(bad), bad).toBeNull();
  });
});
