import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../../core/sqlite.js';
import { bucketFromSql, bucketStart, emptyBucket, mergeBucket, type PartialBucket } from './downsample.js';
import { BLOCK_MS, BlockCache } from './block-cache.js';
import { MinuteCache } from './minute-cache.js';
import { historyMigrations, REBUILD_MINUTES_SQL } from './durable-schema.js';
import { isPowerField, SAMPLE_FIELDS, type HistorySample } from './sample.js';

const MINUTE = 60_000;
const COLUMNS = ['t', ...SAMPLE_FIELDS].join(', ');
const PLACEHOLDERS = ['@t', ...SAMPLE_FIELDS.map((f) => `@${f}`)].join(', ');

/**
 * `(sum, count, min, max)` per field over raw samples, matching `bucketFromSql`'s layout.
 * (better-sqlite3 binds JS numbers as REAL, hence the CASTs before the integer divisions below.)
 */
const RAW_AGGREGATES = SAMPLE_FIELDS.map((f) => `total(${f}), count(${f}), min(${f}), max(${f})`).join(', ');
/** The same layout straight from the per-minute rollup rows. */
const ROLLUP_COLUMNS = SAMPLE_FIELDS.map((f) => (isPowerField(f) ? `${f}_s, ${f}_c, ${f}_lo, ${f}_hi` : `${f}_s, ${f}_c, NULL, NULL`)).join(', ');

/**
 * The durable copy of history in `<dataDir>/energy/history.db` (SQLite, WAL): one row per poll.
 * Each insert is its own transaction, so a crash loses at most the poll in flight.
 */
export class DurableStore {
  readonly db: Db;
  private readonly stmts;
  private readonly minuteCache = new MinuteCache((lo, hi) => (this.stmts.minutes.all(lo, hi) as unknown[][]).map(bucketFromSql));
  private readonly blockCache = new BlockCache((lo, hi, each) => {
    for (const row of this.stmts.span.iterate(lo, hi) as Iterable<unknown[]>) each(row);
  });

  /**
   * `readonly`: a second, read-only connection to a database another connection writes (the history
   * reader worker). WAL lets it read while the poller inserts; it never migrates or writes.
   */
  constructor(
    readonly file: string,
    opts: { readonly?: boolean } = {},
  ) {
    if (opts.readonly) {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      this.db.pragma('busy_timeout = 5000');
    } else this.db = openDatabase(file, historyMigrations);
    const db = this.db;
    this.stmts = {
      insert: db.prepare(`INSERT OR IGNORE INTO samples (${COLUMNS}) VALUES (${PLACEHOLDERS})`),
      insertRow: opts.readonly ? null : db.prepare(`INSERT OR IGNORE INTO samples (${COLUMNS}) VALUES (${['t', ...SAMPLE_FIELDS].map(() => '?').join(', ')})`),
      bulkOn: opts.readonly ? null : db.prepare('INSERT INTO bulk_insert (x) VALUES (1)'),
      bulkOff: opts.readonly ? null : db.prepare('DELETE FROM bulk_insert'),
      count: db.prepare('SELECT count(*) FROM samples').pluck(),
      countBefore: db.prepare('SELECT count(*) FROM samples WHERE t < ?').pluck(),
      firstFrom: db.prepare('SELECT min(t) FROM samples WHERE t >= ?').pluck(),
      lastT: db.prepare('SELECT max(t) FROM samples').pluck(),
      recent: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t <= ? ORDER BY t DESC LIMIT ?`),
      span: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t <= ? ORDER BY t`).raw(),
      after: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t > ? ORDER BY t LIMIT ?`).raw(),
      deleteSamples: db.prepare('DELETE FROM samples WHERE t < ?'),
      deleteMinutes: db.prepare('DELETE FROM minutes WHERE m >= ? AND m <= ?'),
      rebuildMinutes: db.prepare(REBUILD_MINUTES_SQL),
      rawBuckets: db.prepare(`SELECT (t / CAST(@w AS INTEGER)) * CAST(@w AS INTEGER) AS b, count(*), ${RAW_AGGREGATES} FROM samples WHERE t >= @lo AND t <= @hi GROUP BY b ORDER BY b`).raw(),
      minutes: db.prepare(`SELECT m * ${MINUTE}, n, ${ROLLUP_COLUMNS} FROM minutes WHERE m >= ? AND m <= ? ORDER BY m`).raw(),
    };
  }

  /** Appends one sample; false when a sample with the same `t` is already stored. */
  insert(s: HistorySample): boolean {
    // A sample landing in an already sealed (cached) minute would make the cache stale.
    if (Math.floor(s.t / MINUTE) <= this.minuteCache.sealedHi) this.minuteCache.reset();
    if (Math.floor(s.t / BLOCK_MS) <= this.blockCache.sealedHi) this.blockCache.reset();
    return this.stmts.insert.run(s).changes > 0;
  }

  /**
   * Inserts many samples in one transaction (all or nothing); returns how many were new. The
   * per-sample rollup trigger is off inside it (see durable-schema.ts): the minutes the new
   * samples fall in are rolled up once, in SQL (rollUpRange).
   */
  insertMany(samples: Iterable<HistorySample>): number {
    const { insertRow } = this.stmts;
    if (!insertRow) throw new Error('history opened read-only');
    let lo = Infinity;
    let hi = -Infinity;
    return this.bulkInsert(() => {
      const values: unknown[] = new Array(1 + SAMPLE_FIELDS.length);
      let n = 0;
      for (const s of samples) {
        values[0] = s.t;
        for (let i = 0; i < SAMPLE_FIELDS.length; i++) values[i + 1] = s[SAMPLE_FIELDS[i]!];
        if (insertRow.run(values).changes === 0) continue;
        n++;
        if (s.t < lo) lo = s.t;
        if (s.t > hi) hi = s.t;
      }
      return n;
    }, () => [lo, hi]);
  }

  /**
   * The bulk-insert path (imports): runs `insert`, which adds rows to `samples` on this
   * connection and returns how many it added, in one transaction with the per-sample rollup
   * trigger off, then rolls up the range `span()` gives (epoch ms, inclusive) once, in SQL.
   * All or nothing. Returns the rows added.
   */
  bulkInsert(insert: () => number, span: () => [number, number]): number {
    const { bulkOn, bulkOff } = this.stmts;
    if (!bulkOn || !bulkOff) throw new Error('history opened read-only');
    this.resetCache();
    return this.db.transaction(() => {
      bulkOn.run();
      const n = insert();
      if (n > 0) {
        const [lo, hi] = span();
        this.rollUpRange(lo, hi);
      }
      bulkOff.run();
      return n;
    })();
  }

  /**
   * Rebuilds the rollup of every minute that lo <= t <= hi touches from the samples stored in it
   * (one GROUP BY in SQL; samples already there before an import are counted again, not twice).
   * The one step a bulk insert ends with, inside its transaction: a further rollup table (for
   * example of 10 s) is rebuilt here too.
   */
  rollUpRange(loT: number, hiT: number): void {
    if (hiT < loT) return;
    const lo = Math.floor(loT / MINUTE);
    const hi = Math.floor(hiT / MINUTE);
    this.stmts.deleteMinutes.run(lo, hi);
    this.stmts.rebuildMinutes.run({ lo, hi });
  }

  /** Forget cached rollup minutes (rows were added out of order by another connection). */
  resetCache(): void {
    this.minuteCache.reset();
    this.blockCache.reset();
  }

  /** Forget cached aggregates of what a prune to `cutoff` (by another connection) removed. */
  prunedBefore(cutoff: number): void {
    this.minuteCache.dropThrough(Math.floor(cutoff / MINUTE));
    this.blockCache.dropThrough(Math.floor(cutoff / BLOCK_MS));
  }

  /** Deletes samples older than `cutoff` and keeps the rollup exact; returns how many went. */
  prune(cutoff: number): number {
    return this.db.transaction(() => {
      const deleted = this.stmts.deleteSamples.run(cutoff).changes;
      if (deleted === 0) return 0;
      const edge = Math.floor(cutoff / MINUTE);
      this.stmts.deleteMinutes.run(Number.MIN_SAFE_INTEGER, edge);
      this.stmts.rebuildMinutes.run({ lo: edge, hi: edge });
      this.prunedBefore(cutoff);
      return deleted;
    })();
  }

  count(): number {
    return this.stmts.count.get() as number;
  }

  countBefore(t: number): number {
    return this.stmts.countBefore.get(t) as number;
  }

  /** The oldest `t` at or after `cutoff`, or null. */
  firstFrom(cutoff: number): number | null {
    return (this.stmts.firstFrom.get(cutoff) as number | null) ?? null;
  }

  lastT(): number | null {
    return (this.stmts.lastT.get() as number | null) ?? null;
  }

  /** The most recent `limit` samples with lo <= t <= hi, oldest first. */
  recent(lo: number, hi: number, limit: number): HistorySample[] {
    if (hi < lo || limit <= 0) return [];
    return (this.stmts.recent.all(lo, hi, limit) as HistorySample[]).reverse();
  }

  /** Up to `limit` rows (`[t, ...fields]`) with t > afterT, oldest first: keyset pages for export. */
  pageAfter(afterT: number, limit: number): unknown[][] {
    return this.stmts.after.all(afterT, limit) as unknown[][];
  }

  /**
   * Partial buckets of `widthMs` over lo <= t <= hi. Whole minutes come from the rollup when the
   * width is a whole number of minutes, whole 10 s blocks from the block cache when it is a
   * multiple of 10 s; the partial minutes or blocks at either edge, and those not sealed yet, from raw samples.
   */
  buckets(lo: number, hi: number, widthMs: number): PartialBucket[] {
    if (hi < lo) return [];
    const unit = widthMs % MINUTE === 0 ? MINUTE : widthMs % BLOCK_MS === 0 ? BLOCK_MS : 0;
    if (!unit) return this.rawBuckets(lo, hi, widthMs);
    const uLo = Math.ceil(lo / unit);
    const uHi = Math.floor((hi + 1) / unit) - 1;
    if (uLo > uHi) return this.rawBuckets(lo, hi, widthMs);
    // Sources in time order (raw head, rollup units, raw tail) folded into buckets; a bucket that
    // spans two sources is merged. Cached minutes are never mutated: buckets are fresh objects.
    const out: PartialBucket[] = [];
    const add = (b: PartialBucket, start: number, owned: boolean) => {
      const last = out.at(-1);
      if (last && last.t === start) mergeBucket(last, b);
      else if (owned) out.push(b);
      else {
        const fresh = emptyBucket(start);
        mergeBucket(fresh, b);
        out.push(fresh);
      }
    };
    const sealedTo = Math.floor((this.lastT() ?? 0) / unit) - 1;
    let tailFrom = uHi + 1;
    let middle: PartialBucket[] | null = null;
    if (unit === BLOCK_MS) {
      // Blocks not sealed yet (the newest sample's block) are read raw with the tail.
      tailFrom = Math.max(uLo, Math.min(uHi, sealedTo) + 1);
      middle = this.blockCache.fold(uLo, tailFrom - 1, widthMs);
      if (!middle) return this.rawBuckets(lo, hi, widthMs);
    }
    for (const b of this.rawBuckets(lo, uLo * unit - 1, widthMs)) add(b, b.t, true);
    if (middle) for (const b of middle) add(b, b.t, true);
    else for (const b of this.minuteCache.get(uLo, uHi, sealedTo)) add(b, bucketStart(b.t, widthMs), false);
    for (const b of this.rawBuckets(tailFrom * unit, hi, widthMs)) add(b, b.t, true);
    return out;
  }

  private rawBuckets(lo: number, hi: number, widthMs: number): PartialBucket[] {
    if (hi < lo) return [];
    return (this.stmts.rawBuckets.all({ w: widthMs, lo, hi }) as unknown[][]).map(bucketFromSql);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
