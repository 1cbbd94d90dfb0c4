import type { Db } from '../../core/sqlite.js';
import { addToPage, emptyPage, PAGE_BLOCKS, PAGE_MS, pageOf, PER_BLOCK } from './block-pages.js';
import { isPowerField, SAMPLE_FIELDS } from './sample.js';

/**
 * The writers' side of both rollups: `minutes` (one row per minute: count, per field sum and
 * non-null count, min and max of the power fields) and `block_pages` (one blob of 10 s blocks per
 * sealed 10-minute page, block-pages.ts). Both are rebuilt from the samples stored in whole
 * 10-minute pages, in one read of those rows: each row is added to its page's blocks, and each
 * minute's row is summed from its six blocks. A page holds ten whole minutes, so a rebuild never
 * reads a minute in part. (SQL's GROUP BY with the minute's 38 aggregates cost 1.9 s of CPU for a
 * week of 1 s samples; this read and fold costs about a third of that, and builds the pages too.)
 */

const F = SAMPLE_FIELDS.length;
const POWER = SAMPLE_FIELDS.map(isPowerField);
const MINUTE = 60_000;
const MINUTES_PER_PAGE = PAGE_MS / MINUTE;
const BLOCKS_PER_MINUTE = PAGE_BLOCKS / MINUTES_PER_PAGE;
/** Rows read per statement call while rebuilding. */
const BATCH = 8192;

/** The `minutes` columns: m, n, then per field its sum and non-null count, and min and max for power fields. */
export const MINUTE_COLUMNS = ['m', 'n', ...SAMPLE_FIELDS.flatMap((f) => [`${f}_s`, `${f}_c`, ...(isPowerField(f) ? [`${f}_lo`, `${f}_hi`] : [])])];

export class Rollups {
  private readonly stmts;
  /** The packed samples of sealed pages (sample-pages.ts): dropped with a page's rollups, due again once it is sealed. */
  private readonly samplePageStmts;
  /** The page being folded (reused: the blob is copied by SQLite when bound). */
  private readonly page = emptyPage();
  private readonly empty = emptyPage();
  private readonly minute: Array<number | null> = new Array(MINUTE_COLUMNS.length);

  constructor(private readonly db: Db) {
    this.stmts = {
      lastT: db.prepare('SELECT max(t) FROM samples').pluck(),
      rows: db.prepare(`SELECT t, ${SAMPLE_FIELDS.join(', ')} FROM samples WHERE t >= ? AND t < ? ORDER BY t LIMIT ${BATCH}`).raw(),
      deleteMinutes: db.prepare('DELETE FROM minutes WHERE m >= ? AND m < ?'),
      putMinute: db.prepare(`INSERT INTO minutes (${MINUTE_COLUMNS.join(', ')}) VALUES (${MINUTE_COLUMNS.map(() => '?').join(', ')})`),
      deletePages: db.prepare('DELETE FROM block_pages WHERE p >= ? AND p <= ?'),
      putPage: db.prepare('INSERT INTO block_pages (p, blocks) VALUES (?, ?)'),
    };
    // Migration 3 rebuilds the rollups before migration 5 adds the sample pages (it marks every
    // sealed page due itself).
    const samplePages = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sample_pages_due'").get() !== undefined;
    this.samplePageStmts = samplePages
      ? {
          deleteSamplePages: db.prepare('DELETE FROM sample_pages WHERE p >= ? AND p <= ?'),
          deleteDue: db.prepare('DELETE FROM sample_pages_due WHERE p >= ? AND p <= ?'),
          addDue: db.prepare('INSERT OR IGNORE INTO sample_pages_due (p) VALUES (?)'),
        }
      : null;
  }

  /**
   * Rebuilds the minutes and pages of every 10-minute page that lo <= t <= hi touches from the
   * samples stored there (a page or minute left without samples loses its row). Only sealed pages
   * are stored: those before the newest sample's, which polls still add to. Runs in the caller's
   * transaction when there is one.
   */
  rebuild(loT: number, hiT: number): void {
    if (hiT < loT) return;
    const pLo = pageOf(Math.max(loT, Number.MIN_SAFE_INTEGER));
    const pHi = pageOf(Math.min(hiT, Number.MAX_SAFE_INTEGER));
    const { stmts } = this;
    this.clear(pLo, pHi);
    const to = (pHi + 1) * PAGE_MS;
    const fold = this.folder();
    for (let from = pLo * PAGE_MS; ; ) {
      const rows = stmts.rows.all(from, to) as unknown[][];
      fold.add(rows);
      if (rows.length < BATCH) break;
      from = (rows[BATCH - 1]![0] as number) + 1;
    }
    fold.end();
  }

  /**
   * Stores the rollups of `rows` (`[t, ...SAMPLE_FIELDS]`, in `t` order), which are all the
   * samples the pages they fall in hold: rows just inserted into pages that held none before
   * (so nothing is read back).
   */
  fold(rows: readonly unknown[][]): void {
    if (!rows.length) return;
    // Those pages should have no rollup rows; any left from an older build are replaced, not kept.
    this.clear(pageOf(rows[0]![0] as number), pageOf(rows[rows.length - 1]![0] as number));
    const fold = this.folder();
    fold.add(rows);
    fold.end();
  }

  /** Deletes the minutes, blocks and packed samples of pages pLo..pHi. */
  private clear(pLo: number, pHi: number): void {
    this.stmts.deleteMinutes.run(pLo * MINUTES_PER_PAGE, (pHi + 1) * MINUTES_PER_PAGE);
    this.stmts.deletePages.run(pLo, pHi);
    this.samplePageStmts?.deleteSamplePages.run(pLo, pHi);
    this.samplePageStmts?.deleteDue.run(pLo, pHi);
  }

  /** Folds rows given in `t` order page by page, storing each page once the rows leave it. */
  private folder(): { add(rows: readonly unknown[][]): void; end(): void } {
    const last = this.stmts.lastT.get() as number | null;
    const sealedBelow = last === null ? -Infinity : pageOf(last);
    let p = NaN;
    return {
      add: (rows) => {
        for (const row of rows) {
          const q = pageOf(row[0] as number);
          if (q !== p) {
            if (p === p) this.store(p, sealedBelow);
            p = q;
            this.page.set(this.empty);
          }
          addToPage(this.page, p, row);
        }
      },
      end: () => {
        if (p === p) this.store(p, sealedBelow);
      },
    };
  }

  /** Writes the folded page `p`: its minutes, and its blob when it is sealed (its samples' blob is then due). */
  private store(p: number, sealedBelow: number): void {
    const a = this.page;
    const v = this.minute;
    for (let k = 0; k < MINUTES_PER_PAGE; k++) {
      const first = k * BLOCKS_PER_MINUTE;
      let n = 0;
      for (let b = first; b < first + BLOCKS_PER_MINUTE; b++) n += a[b * PER_BLOCK]!;
      if (n === 0) continue;
      v[0] = p * MINUTES_PER_PAGE + k;
      v[1] = n;
      let j = 2;
      for (let i = 0; i < F; i++) {
        let s = 0;
        let c = 0;
        let lo = NaN;
        let hi = NaN;
        for (let b = first; b < first + BLOCKS_PER_MINUTE; b++) {
          const o = b * PER_BLOCK + 1 + 4 * i;
          const bc = a[o + 1]!;
          if (bc === 0) continue;
          s += a[o]!;
          c += bc;
          if (!(lo <= a[o + 2]!)) lo = a[o + 2]!;
          if (!(hi >= a[o + 3]!)) hi = a[o + 3]!;
        }
        v[j++] = s;
        v[j++] = c;
        if (POWER[i]) {
          v[j++] = c ? lo : null;
          v[j++] = c ? hi : null;
        }
      }
      this.stmts.putMinute.run(v);
    }
    if (p < sealedBelow) {
      this.stmts.putPage.run(p, Buffer.from(a.buffer, a.byteOffset, a.byteLength));
      this.samplePageStmts?.addDue.run(p);
    }
  }
}
