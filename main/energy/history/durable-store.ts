import Database from 'better-sqlite3';
import { openDatabase, type Db } from '../../core/sqlite.js';
import { bucketFromSql, mergeBucket, type PartialBucket } from './downsample.js';
import { historyMigrations, OLD_TABLES, tierColumns, TIERS, type Tier } from './durable-schema.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

const COLUMNS = ['t', ...SAMPLE_FIELDS].join(', ');
const values = (s: HistorySample): unknown[] => [s.t, ...SAMPLE_FIELDS.map((f) => s[f])];
const TIER_COLUMNS = ['k', 'n', ...SAMPLE_FIELDS.flatMap(tierColumns)].join(', ');
/** A poll added to its minute or hour: `@k` and the sample's fields bound by name. */
const upsertTier = (tier: Tier) =>
  `INSERT INTO ${tier} (${TIER_COLUMNS}) VALUES (@k, 1, ${SAMPLE_FIELDS.map((f) => `coalesce(@${f}, 0), @${f} IS NOT NULL, @${f}, @${f}`).join(', ')})
   ON CONFLICT(k) DO UPDATE SET n = n + 1, ${SAMPLE_FIELDS.map(
     (f) =>
       `${f}_s = ${f}_s + excluded.${f}_s, ${f}_c = ${f}_c + excluded.${f}_c, ` +
       `${f}_lo = coalesce(min(${f}_lo, excluded.${f}_lo), ${f}_lo, excluded.${f}_lo), ${f}_hi = coalesce(max(${f}_hi, excluded.${f}_hi), ${f}_hi, excluded.${f}_hi)`,
   ).join(', ')}`;
/** Aggregates laid out as `bucketFromSql` reads them: per field sum, count, min, max. */
const RAW_AGGREGATES = SAMPLE_FIELDS.map((f) => `total(${f}), count(${f}), min(${f}), max(${f})`).join(', ');
const TIER_AGGREGATES = SAMPLE_FIELDS.map((f) => `total(${f}_s), total(${f}_c), min(${f}_lo), max(${f}_hi)`).join(', ');
/** The minutes of samples `@lo <= t < @hi` rebuilt from them (whole minutes; the import bench's sqlite3 baseline runs it too). */
export const REBUILD_MINUTES_SQL = `INSERT OR REPLACE INTO minute (${TIER_COLUMNS}) SELECT t / 60000, count(*), ${RAW_AGGREGATES} FROM samples WHERE t >= @lo AND t < @hi GROUP BY t / 60000`;
/** The hours of `@lo <= t < @hi` rebuilt from their minutes (whole hours). */
export const REBUILD_HOURS_SQL = `INSERT OR REPLACE INTO hour (${TIER_COLUMNS}) SELECT k / 60, sum(n), ${TIER_AGGREGATES} FROM minute WHERE k >= @lo / 60000 AND k < @hi / 60000 GROUP BY k / 60`;
/** Integer division of `t` into buckets of `@w` ms (better-sqlite3 binds numbers as REAL). */
const bucketOf = (t: string) => `(${t} / CAST(@w AS INTEGER)) * CAST(@w AS INTEGER)`;

/** Where each tier still holds data: raw samples from `raw` on, minutes from `minute` on (epoch ms). */
export interface TierCutoffs {
  raw: number;
  minute: number;
}

/**
 * The history database (durable-schema.ts) on one connection: the writer's (the service, an import
 * worker) or, `readonly`, a reader's (the history reader worker; WAL lets it read while polls commit).
 */
export class DurableStore {
  readonly db: Db;
  private readonly stmts;
  /** Made once: better-sqlite3 builds four wrapper functions a transaction (a tenth of a poll's insert when made each time). */
  private readonly insertOne;

  constructor(
    readonly file: string,
    opts: { readonly?: boolean } = {},
  ) {
    if (opts.readonly) {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      this.db.pragma('busy_timeout = 5000');
      // SQLite's own 2 MB page cache, not better-sqlite3's 16 MB: an export reads every page once,
      // and the cache only grew the process by 16 MB for good.
      this.db.pragma('cache_size = -2000');
    } else {
      this.db = openDatabase(file, historyMigrations);
      // An import's WAL is cut back to this once checkpointed.
      this.db.pragma(`journal_size_limit = ${4 << 20}`);
    }
    const db = this.db;
    const tierRead = (tier: Tier) => db.prepare(`SELECT ${bucketOf(`k * ${TIERS[tier]}`)} AS b, total(n), ${TIER_AGGREGATES} FROM ${tier} WHERE k >= @a AND k <= @b GROUP BY b ORDER BY b`).raw();
    const tierEdge = (tier: Tier, fn: 'min' | 'max', op: '>=' | '<=') => db.prepare(`SELECT ${fn}(k) * ${TIERS[tier]} FROM ${tier} WHERE k ${op} ?`).pluck();
    const tierBucket = (tier: Tier) => db.prepare(`SELECT total(n), ${TIER_AGGREGATES} FROM ${tier} WHERE k >= ? AND k < ?`).raw();
    this.stmts = {
      insert: db.prepare(`INSERT OR IGNORE INTO samples (${COLUMNS}) VALUES (${['t', ...SAMPLE_FIELDS].map(() => '?').join(', ')})`),
      upsert: { minute: db.prepare(upsertTier('minute')), hour: db.prepare(upsertTier('hour')) },
      rebuildMinutes: db.prepare(REBUILD_MINUTES_SQL),
      rebuildHours: db.prepare(REBUILD_HOURS_SQL),
      count: db.prepare('SELECT count(*) FROM samples').pluck(),
      countRange: db.prepare('SELECT count(*) FROM samples WHERE t >= ? AND t < ?').pluck(),
      sumHours: db.prepare('SELECT total(n) FROM hour WHERE k >= ? AND k < ?').pluck(),
      firstFrom: db.prepare('SELECT min(t) FROM samples WHERE t >= ?').pluck(),
      lastT: db.prepare('SELECT max(t) FROM samples').pluck(),
      lastUntil: db.prepare('SELECT max(t) FROM samples WHERE t <= ?').pluck(),
      recent: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t >= ? AND t <= ? ORDER BY t DESC LIMIT ?`),
      after: db.prepare(`SELECT ${COLUMNS} FROM samples WHERE t > ? ORDER BY t LIMIT ?`).raw(),
      deleteSamples: db.prepare('DELETE FROM samples WHERE t < ?'),
      deleteMinutes: db.prepare('DELETE FROM minute WHERE k < ?'),
      rawRead: db.prepare(`SELECT ${bucketOf('t')} AS b, count(*), ${RAW_AGGREGATES} FROM samples WHERE t >= @lo AND t <= @hi GROUP BY b ORDER BY b`).raw(),
      tierRead: { minute: tierRead('minute'), hour: tierRead('hour') },
      tierBucket: { minute: tierBucket('minute'), hour: tierBucket('hour') },
      tierFirst: { minute: tierEdge('minute', 'min', '>='), hour: tierEdge('hour', 'min', '>=') },
      tierLast: { minute: tierEdge('minute', 'max', '<='), hour: tierEdge('hour', 'max', '<=') },
      below: db.prepare('SELECT below FROM upgrade').pluck(),
    };
    const { insert, upsert } = this.stmts;
    this.insertOne = db.transaction((s: HistorySample): boolean => {
      if (insert.run(values(s)).changes === 0) return false;
      upsert.minute.run({ ...s, k: Math.floor(s.t / TIERS.minute) });
      upsert.hour.run({ ...s, k: Math.floor(s.t / TIERS.hour) });
      return true;
    });
  }

  /** Whether this connection's commits fold the WAL back (off while an import worker checkpoints itself). */
  autoCheckpoint(on: boolean): void {
    this.db.pragma(`wal_autocheckpoint = ${on ? 1000 : 0}`);
  }

  /** Appends one sample and adds it to its minute and hour, in one transaction; false when `t` is already stored. */
  insert(s: HistorySample): boolean {
    return this.insertOne.immediate(s);
  }

  /**
   * Inserts many samples (imports) in one IMMEDIATE transaction (the write lock is taken at BEGIN,
   * waiting for a poll's commit), rebuilding the minutes and hours they touched; returns how many were new.
   */
  insertMany(samples: Iterable<HistorySample>): number {
    return this.db
      .transaction(() => {
        let n = 0;
        let lo = Infinity;
        let hi = -Infinity;
        for (const s of samples) {
          if (this.stmts.insert.run(values(s)).changes === 0) continue;
          n++;
          lo = Math.min(lo, s.t);
          hi = Math.max(hi, s.t);
        }
        if (n > 0) this.rebuildTiers(lo, hi);
        return n;
      })
      .immediate();
  }

  /** Rebuilds the minutes of lo..hi from the samples and the hours around them from the minutes. */
  rebuildTiers(lo: number, hi: number): void {
    const { minute, hour } = TIERS;
    this.stmts.rebuildMinutes.run({ lo: Math.floor(lo / minute) * minute, hi: (Math.floor(hi / minute) + 1) * minute });
    this.stmts.rebuildHours.run({ lo: Math.floor(lo / hour) * hour, hi: (Math.floor(hi / hour) + 1) * hour });
  }

  /** Deletes samples before `cut.raw` and minutes before `cut.minute` (hours stay); returns the samples deleted. */
  prune(cut: TierCutoffs): number {
    return this.db.transaction(() => {
      this.stmts.deleteMinutes.run(Math.floor(cut.minute / TIERS.minute));
      return this.stmts.deleteSamples.run(cut.raw).changes;
    })();
  }

  /**
   * The tiers hold every sample from this `t` on; before it (an upgrade from version 5 still
   * building them, upgrade.ts) reads take the samples.
   */
  tiersFrom(): number {
    return (this.stmts.below.get() as number | undefined) ?? Number.MIN_SAFE_INTEGER;
  }

  /**
   * One step of the upgrade from version 5: the tiers of the hour below `tiersFrom()` from its
   * samples; once below the oldest sample, the old tables are dropped. False when nothing is left.
   */
  upgradeStep(): boolean {
    return this.db
      .transaction(() => {
        const below = this.stmts.below.get() as number | undefined;
        if (below === undefined) return false;
        const first = this.stmts.firstFrom.get(Number.MIN_SAFE_INTEGER) as number | null;
        if (first === null || below <= first) {
          for (const t of OLD_TABLES) this.db.exec(`DROP TABLE IF EXISTS ${t}`);
          this.db.exec('DELETE FROM upgrade');
          return false;
        }
        this.rebuildTiers(below - TIERS.hour, below - 1);
        this.db.prepare('UPDATE upgrade SET below = ?').run(below - TIERS.hour);
        return true;
      })
      .immediate();
  }

  count(): number {
    return this.stmts.count.get() as number;
  }

  /**
   * Samples at or after `cutoff`, without a scan of the table: the whole hours between the first
   * and the last stored sample from the hour tier (it counts every sample stored in them, and the
   * samples from the first on are all kept), the parts of an hour at either end from the samples.
   */
  countFrom(cutoff: number): number {
    const first = this.firstFrom(cutoff);
    const last = this.lastT();
    if (first === null || last === null) return 0;
    const { hour } = TIERS;
    const a = Math.ceil(Math.max(first, this.tiersFrom()) / hour);
    const b = Math.floor((last + 1) / hour);
    const { countRange, sumHours } = this.stmts;
    if (a >= b) return countRange.get(first, last + 1) as number;
    return (countRange.get(first, a * hour) as number) + (sumHours.get(a, b) as number) + (countRange.get(b * hour, last + 1) as number);
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
   * The first and last time with data in lo..hi: samples, and before `cut.raw` the start of the
   * tiers' minutes and hours. Null when there is none.
   */
  extent(lo: number, hi: number, cut: TierCutoffs): [number, number] | null {
    const s = this.stmts;
    const firsts = [s.firstFrom.get(lo) as number | null];
    const lasts = [s.lastUntil.get(hi) as number | null];
    if (lo < cut.raw)
      for (const tier of ['minute', 'hour'] as const) {
        firsts.push(s.tierFirst[tier].get(Math.ceil(lo / TIERS[tier])) as number | null);
        lasts.push(s.tierLast[tier].get(Math.floor(Math.min(hi, cut.raw - 1) / TIERS[tier])) as number | null);
      }
    const first = Math.min(...firsts.map((t) => (t === null || t > hi ? Infinity : t)));
    const last = Math.max(...lasts.map((t) => (t === null || t < lo ? -Infinity : t)));
    return first <= last ? [first, last] : null;
  }

  /**
   * Partial buckets of `widthMs` over lo <= t <= hi, in time order, read from the coarsest tier
   * whose unit divides the width (hours, minutes, else samples), the part of a unit at either edge
   * from the next finer one. Before the raw cutoff only the tiers hold data: there minutes (hours
   * before the minute cutoff, or for a width of an hour or more) go whole into the bucket their
   * start falls in.
   */
  buckets(lo: number, hi: number, widthMs: number, cut: TierCutoffs): PartialBucket[] {
    const out: PartialBucket[] = [];
    const add = (rows: unknown[][]) => {
      for (const row of rows) {
        const b = bucketFromSql(row);
        const last = out[out.length - 1];
        if (last && last.t === b.t) mergeBucket(last, b);
        else out.push(b);
      }
    };
    const trusted = this.tiersFrom();
    const units = [0, TIERS.minute, TIERS.hour];
    const tierOf = [null, 'minute', 'hour'] as const;
    const fill = (from: number, to: number, level: number): void => {
      if (to < from) return;
      if (level === 0) return add(this.stmts.rawRead.all({ w: widthMs, lo: from, hi: to }) as unknown[][]);
      const u = units[level]!;
      const a = Math.ceil(Math.max(from, trusted) / u);
      const b = Math.floor((to + 1) / u) - 1;
      if (a > b) return fill(from, to, level - 1);
      fill(from, a * u - 1, level - 1);
      const tier = tierOf[level]!;
      add(widthMs >= 10 * u ? this.tierBuckets(tier, a, b, widthMs) : (this.stmts.tierRead[tier].all({ w: widthMs, a, b }) as unknown[][]));
      fill((b + 1) * u, to, level - 1);
    };
    const level = widthMs % TIERS.hour === 0 ? 2 : widthMs % TIERS.minute === 0 ? 1 : 0;
    fill(lo, Math.min(hi, cut.minute - 1), 2);
    // Before the raw cutoff a width of an hour or more reads hours (each whole in the bucket of its start).
    fill(Math.max(lo, cut.minute), Math.min(hi, cut.raw - 1), widthMs >= TIERS.hour ? 2 : Math.max(level, 1));
    fill(Math.max(lo, cut.raw), hi, level);
    return out;
  }

  /**
   * The rows of units a..b of `tier` in buckets of `widthMs` (each unit whole in the bucket of its
   * start), one query a bucket from the first unit with data to the last: for wide buckets this is
   * half the CPU of the GROUP BY, which sorts every unit first (a year of minutes: 0.8 s, not 1.6 s).
   */
  private tierBuckets(tier: Tier, a: number, b: number, widthMs: number): unknown[][] {
    const u = TIERS[tier];
    const { tierFirst, tierLast, tierBucket } = this.stmts;
    const first = tierFirst[tier].get(a) as number | null;
    const last = tierLast[tier].get(b) as number | null;
    const rows: unknown[][] = [];
    if (first === null || last === null) return rows;
    for (let t = Math.floor(first / widthMs) * widthMs; t <= last; t += widthMs) {
      const row = tierBucket[tier].get(Math.max(a, Math.ceil(t / u)), Math.min(b + 1, Math.ceil((t + widthMs) / u))) as unknown[];
      if (row[0]) rows.push([t, ...row]);
    }
    return rows;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
