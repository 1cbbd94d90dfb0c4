import Database from 'better-sqlite3';
import type { Clock, Timer } from '../../core/clock.js';
import { openDatabase, type Db } from '../../core/sqlite.js';
import { BucketColumns } from './bucket-columns.js';
import { bucketFromSql, bucketStart, MAX_ROWS } from './downsample.js';
import { BlockCache } from './block-cache.js';
import { BLOCK_MS, foldPage, PAGE_BLOCKS, PAGE_MS, pageOf } from './block-pages.js';
import { historyMigrations, UPSERT_MINUTE_SQL } from './durable-schema.js';
import { Rollups } from './rollups.js';
import { encodeSamplePage, MAX_PAGE_ROWS } from './sample-pages.js';
import { isPowerField, SAMPLE_FIELDS, type HistorySample } from './sample.js';

const MINUTE = 60_000;
/** The WAL's size once checkpointed: about what 1,000 pages between automatic checkpoints fill. */
const WAL_KEPT_BYTES = 4 << 20;
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
  private readonly cacheIdle: { clock: Clock; ms: number } | null;
  private idleTimer: Timer | null = null;
  private readonly stmts;
  /**
   * The writer's statements, with the rollups that keep `minutes`, `block_pages` and the sample
   * pages due for bulk inserts and the prune (null when read-only).
   */
  private readonly writes;
  /** Sealed minutes from the per-minute rollup (the 10 s blocks are read from `block_pages`, never held). */
  private readonly minuteCache = new BlockCache(MINUTE, (lo, hi, each) => {
    for (const row of this.stmts.minutes.iterate(lo, hi) as Iterable<unknown[]>) each(row);
  });
  /**
   * `readonly`: a second, read-only connection to a database another connection writes (the history
   * reader worker). WAL lets it read while the poller inserts; it never migrates or writes.
   */
  constructor(
    readonly file: string,
    opts: {
      readonly?: boolean;
      /**
       * Let go of the cached rollup minutes once no downsampled read has used them for `ms` (idle
       * memory: 2.9 MB a week). Without it they stay until invalidated.
       */
      cacheIdle?: { clock: Clock; ms: number };
    } = {},
  ) {
    this.cacheIdle = opts.cacheIdle ?? null;
    if (opts.readonly) {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      this.db.pragma('busy_timeout = 5000');
    } else this.db = openDatabase(file, historyMigrations);
    const db = this.db;
    this.stmts = {
      insert: db.prepare(`INSERT OR IGNORE INTO samples (${COLUMNS}) VALUES (${PLACEHOLDERS})`),
      count: db.prepare('SELECT coalesce(sum(n), 0) FROM minutes').pluck(),
      anyIn: db.prepare('SELECT EXISTS (SELECT 1 FROM samples WHERE t >= ? AND t < ?)').pluck(),
      countBefore: db.prepare('SELECT count(*) FROM samples WHERE t < ?').pluck(),
      firstFrom: db.prepare('SELECT min(t) FROM samples WHERE t >= ?').pluck(),
      lastT: db.prepare('SELECT max(t) FROM samples').pluck(),
      recent: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t <= ? ORDER BY t DESC LIMIT ?`),
      span: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t <= ? ORDER BY t`).raw(),
      after: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t > ? ORDER BY t LIMIT ?`).raw(),
      deleteSamples: db.prepare('DELETE FROM samples WHERE t < ?'),
      deleteMinutesBefore: db.prepare('DELETE FROM minutes WHERE m < ?'),
      rawBuckets: db.prepare(`SELECT (t / CAST(@w AS INTEGER)) * CAST(@w AS INTEGER) AS b, count(*), ${RAW_AGGREGATES} FROM samples WHERE t >= @lo AND t <= @hi GROUP BY b ORDER BY b`).raw(),
      minutes: db.prepare(`SELECT m * ${MINUTE}, n, ${ROLLUP_COLUMNS} FROM minutes WHERE m >= ? AND m <= ? ORDER BY m`).raw(),
      pages: db.prepare('SELECT p, blocks FROM block_pages WHERE p >= ? AND p <= ? ORDER BY p').raw(),
      deletePages: db.prepare('DELETE FROM block_pages WHERE p < ?'),
    };
    this.writes = opts.readonly
      ? null
      : {
          rollups: new Rollups(db),
          insertRow: db.prepare(`INSERT OR IGNORE INTO samples (${COLUMNS}) VALUES (${['t', ...SAMPLE_FIELDS].map(() => '?').join(', ')})`),
          upsertMinute: db.prepare(UPSERT_MINUTE_SQL),
          deleteSamplePages: db.prepare('DELETE FROM sample_pages WHERE p < ?'),
          deleteDue: db.prepare('DELETE FROM sample_pages_due WHERE p < ?'),
          due: db.prepare('SELECT p FROM sample_pages_due ORDER BY p LIMIT ?').pluck(),
          pageSamples: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t < ? ORDER BY t LIMIT ${MAX_PAGE_ROWS + 1}`).raw(),
          putSamplePage: db.prepare('INSERT OR REPLACE INTO sample_pages (p, n, samples) VALUES (?, ?, ?)'),
          doneDue: db.prepare('DELETE FROM sample_pages_due WHERE p = ?'),
        };
    // After a checkpoint has folded it all back, the WAL file is cut back to this size (an import
    // lets it grow to tens of megabytes).
    if (!opts.readonly) db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
  }

  /**
   * Whether this connection's commits fold the WAL back into the database (SQLite's automatic
   * checkpoint, every 1,000 pages). Off while an import worker writes: it checkpoints itself, and a
   * poll's commit would otherwise copy the import's pages on the service thread.
   */
  autoCheckpoint(on: boolean): void {
    this.db.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
  }

  private writer(): NonNullable<DurableStore['writes']> {
    if (!this.writes) throw new Error('history opened read-only');
    return this.writes;
  }

  /** Appends one sample; false when a sample with the same `t` is already stored. */
  insert(s: HistorySample): boolean {
    // A sample landing in an already sealed (cached) minute would make the cache stale.
    if (Math.floor(s.t / MINUTE) <= this.minuteCache.sealedHi) this.minuteCache.reset();
    const { rollups, upsertMinute } = this.writer();
    const before = this.lastT();
    return this.db
      .transaction(() => {
        if (this.stmts.insert.run(s).changes === 0) return false;
        // A poll in the newest page, as nearly always: its minute gains it. A new page seals the
        // one before (once per 10 minutes); a sample in an older, sealed page rebuilds that page.
        upsertMinute.run(s.t);
        if (before !== null && pageOf(s.t) !== pageOf(before)) {
          rollups.rebuild(s.t, s.t);
          if (pageOf(before) < pageOf(this.lastT()!)) rollups.rebuild(before, before);
        }
        return true;
      })
      .immediate();
  }

  /**
   * Inserts many samples in one transaction (all or nothing); returns how many were new. The
   * rollups of the range they fall in are rebuilt once, at the end (bulkInsert).
   */
  insertMany(samples: Iterable<HistorySample>): number {
    const { insertRow } = this.writer();
    let lo = Infinity;
    let hi = -Infinity;
    return this.bulkInsert(
      () => {
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
      },
      () => [lo, hi],
    );
  }

  /**
   * The bulk-insert path (imports): runs `insert`, which adds rows to `samples` on this
   * connection and returns how many it added, then rebuilds the rollups of the range `span()`
   * gives (epoch ms, inclusive; rollups.ts), all in one transaction. Returns the rows added.
   * `rows`: what `insert` copies, as `[t, ...SAMPLE_FIELDS]` in `t` order; when the 10-minute
   * pages they fall in held no sample before and every one of them was added, the rollups are
   * folded from them instead of read back from the table.
   */
  bulkInsert(insert: () => number, span: () => [number, number], rows?: readonly unknown[][]): number {
    const { rollups } = this.writer();
    this.resetCache();
    // IMMEDIATE: the write lock is taken at BEGIN, where SQLite waits for it (busy_timeout). A
    // deferred transaction starts as a read (lastT) and must then upgrade to a write: if another
    // connection (the poller on the service thread) writes in between, SQLite fails that upgrade
    // at once with SQLITE_BUSY instead of waiting, and the import failed half way.
    return this.db
      .transaction(() => {
        const before = this.lastT();
        const fresh = rows?.length ? this.stmts.anyIn.get(pageOf(rows[0]![0] as number) * PAGE_MS, (pageOf(rows[rows.length - 1]![0] as number) + 1) * PAGE_MS) === 0 : false;
        const n = insert();
        if (n === 0) return 0;
        const [lo, hi] = span();
        if (fresh && n === rows!.length) rollups.fold(rows!);
        else rollups.rebuild(lo, hi);
        // The page that was the newest is sealed now if the insert brought a newer one.
        if (before !== null && (pageOf(before) < pageOf(lo) || pageOf(before) > pageOf(hi)) && pageOf(before) < pageOf(this.lastT()!)) rollups.rebuild(before, before);
        return n;
      })
      .immediate();
  }

  /**
   * Writes the packed samples (sample-pages.ts) of up to `maxPages` sealed pages that are due, the
   * oldest first, in one transaction; returns how many pages were due (fewer than `maxPages`: none
   * is left). A page denser than MAX_PAGE_ROWS gets none and is read from `samples`.
   */
  fillSamplePages(maxPages: number): number {
    const { due, pageSamples, putSamplePage, doneDue } = this.writer();
    return this.db
      .transaction(() => {
        const pages = due.all(maxPages) as number[];
        for (const p of pages) {
          const rows = pageSamples.all(p * PAGE_MS, (p + 1) * PAGE_MS) as unknown[][];
          if (rows.length && rows.length <= MAX_PAGE_ROWS) putSamplePage.run(p, rows.length, encodeSamplePage(p, rows));
          doneDue.run(p);
        }
        return pages.length;
      })
      .immediate();
  }

  /** Slots the read cache holds (284 bytes each): rollup minutes. */
  cacheSize(): { minutes: number } {
    return { minutes: this.minuteCache.slots };
  }

  /** Re-arms the idle release of the minute cache (see `cacheIdle`). */
  private cachesUsed(): void {
    const idle = this.cacheIdle;
    if (!idle) return;
    if (this.idleTimer) idle.clock.clear(this.idleTimer);
    this.idleTimer = idle.clock.setTimeout(() => {
      this.idleTimer = null;
      this.resetCache();
    }, idle.ms);
    this.idleTimer.unref?.();
  }

  /** Forget cached rollup minutes (rows were added out of order by another connection). */
  resetCache(): void {
    this.minuteCache.reset();
  }

  /** Forget cached aggregates of what a prune to `cutoff` (by another connection) removed. */
  prunedBefore(cutoff: number): void {
    this.minuteCache.dropThrough(Math.floor(cutoff / MINUTE));
  }

  /** Deletes samples older than `cutoff` and keeps the rollup exact; returns how many went. */
  prune(cutoff: number): number {
    return this.db.transaction(() => {
      const deleted = this.stmts.deleteSamples.run(cutoff).changes;
      if (deleted === 0) return 0;
      // Everything before the cutoff's page goes; that page (minutes, blocks, packed samples) is
      // rebuilt from what is left in it.
      const { rollups, deleteSamplePages, deleteDue } = this.writer();
      this.stmts.deleteMinutesBefore.run((pageOf(cutoff) * PAGE_MS) / MINUTE);
      this.stmts.deletePages.run(pageOf(cutoff));
      deleteSamplePages.run(pageOf(cutoff));
      deleteDue.run(pageOf(cutoff));
      rollups.rebuild(cutoff, cutoff);
      this.prunedBefore(cutoff);
      return deleted;
    })();
  }

  /**
   * How many samples are stored, from the per-minute rollup, which every writer keeps whole in the
   * same transaction (a poll adds itself to its minute; imports, prunes and sealed pages are folded
   * again): a `count(*)` reads the whole table instead, 80 MB and ~50 ms for a week of 1 s polls,
   * at every start.
   */
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
   * Partial buckets of `widthMs` over lo <= t <= hi, in time order. Whole minutes come from the
   * per-minute rollup (cached) when the width is a whole number of minutes, whole 10 s blocks from
   * the stored 10-minute pages (block-pages.ts) when it is a multiple of 10 s; the partial minutes
   * or blocks at either edge, and those not sealed yet, from raw samples.
   */
  buckets(lo: number, hi: number, widthMs: number): BucketColumns {
    const out = new BucketColumns(hi < lo ? 1 : Math.min(MAX_ROWS, Math.floor((hi - lo) / widthMs) + 2));
    if (hi < lo) return out;
    const unit = widthMs % MINUTE === 0 ? MINUTE : widthMs % BLOCK_MS === 0 ? BLOCK_MS : 0;
    const uLo = Math.ceil(lo / unit);
    const uHi = Math.floor((hi + 1) / unit) - 1;
    if (!unit || uLo > uHi) return this.rawBucketsInto(out, lo, hi, widthMs);
    // Sources in time order (raw head, cached units, raw tail), each merged into the buckets at
    // the end of `out`, so a bucket that spans two sources comes out whole. Units not sealed yet
    // (the newest sample's) are read raw with the tail.
    const sealedTo = Math.floor((this.lastT() ?? 0) / unit) - 1;
    const tailFrom = Math.max(uLo, Math.min(uHi, sealedTo) + 1);
    this.rawBucketsInto(out, lo, uLo * unit - 1, widthMs);
    if (unit === MINUTE) {
      // Wider than the cache holds: the rollup rows are read without keeping them.
      if (!this.minuteCache.foldInto(out, uLo, tailFrom - 1, widthMs))
        for (const row of this.stmts.minutes.iterate(uLo, tailFrom - 1) as Iterable<unknown[]>) out.add(bucketFromSql(row), bucketStart(row[0] as number, widthMs));
    } else this.pagesInto(out, uLo, tailFrom - 1, widthMs);
    this.rawBucketsInto(out, tailFrom * unit, hi, widthMs);
    this.cachesUsed();
    return out;
  }

  /** Blocks bLo..bHi from the stored pages; a page without a row (not sealed, or written before it was) is read raw. */
  private pagesInto(out: BucketColumns, bLo: number, bHi: number, widthMs: number): void {
    if (bHi < bLo) return;
    const pLo = Math.floor(bLo / PAGE_BLOCKS);
    const pHi = Math.floor(bHi / PAGE_BLOCKS);
    const raw = (from: number, to: number) => {
      if (to >= from) this.rawBucketsInto(out, Math.max(bLo, from * PAGE_BLOCKS) * BLOCK_MS, (Math.min(bHi, to * PAGE_BLOCKS + PAGE_BLOCKS - 1) + 1) * BLOCK_MS - 1, widthMs);
    };
    let next = pLo;
    for (const [p, blob] of this.stmts.pages.all(pLo, pHi) as Array<[number, Buffer]>) {
      raw(next, p - 1);
      foldPage(out, p, blob, Math.max(bLo, p * PAGE_BLOCKS), Math.min(bHi, p * PAGE_BLOCKS + PAGE_BLOCKS - 1), widthMs);
      next = p + 1;
    }
    raw(next, pHi);
  }

  private rawBucketsInto(out: BucketColumns, lo: number, hi: number, widthMs: number): BucketColumns {
    if (hi < lo) return out;
    for (const row of this.stmts.rawBuckets.all({ w: widthMs, lo, hi }) as unknown[][]) out.add(bucketFromSql(row));
    return out;
  }

  close(): void {
    if (this.idleTimer) this.cacheIdle?.clock.clear(this.idleTimer);
    this.idleTimer = null;
    if (this.db.open) this.db.close();
  }
}
