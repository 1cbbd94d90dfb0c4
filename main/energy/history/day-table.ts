import { openDatabase, type Db, type Migration } from '../../core/sqlite.js';

/**
 * One row per local day (`date` is `YYYY-MM-DD`) in its own SQLite file, kept for years: the
 * shape shared by the daily totals and the savings figures. `columns` maps each field to its
 * column; re-putting a day replaces it.
 */
export class DayTable<Row extends { date: string }> {
  private readonly db: Db;
  private readonly stmts;

  constructor(file: string, columns: { readonly [K in keyof Row]: string }, migrations: Migration[]) {
    this.db = openDatabase(file, migrations);
    const fields = Object.keys(columns);
    const names = Object.values<string>(columns);
    const select = fields.map((k, i) => `${names[i]} AS ${k}`).join(', ');
    this.stmts = {
      upsert: this.db.prepare(
        `INSERT INTO days (${names.join(', ')}) VALUES (${fields.map((k) => `@${k}`).join(', ')})
         ON CONFLICT(date) DO UPDATE SET ${names.filter((c) => c !== 'date').map((c) => `${c} = excluded.${c}`).join(', ')}`,
      ),
      has: this.db.prepare('SELECT 1 FROM days WHERE date = ?').pluck(),
      range: this.db.prepare(`SELECT ${select} FROM days WHERE date >= ? AND date <= ? ORDER BY date`),
    };
  }

  put(row: Row): void {
    this.stmts.upsert.run(row);
  }

  has(date: string): boolean {
    return this.stmts.has.get(date) !== undefined;
  }

  /** The days from `from` to `to`, both included, oldest first. */
  range(from: string, to: string): Row[] {
    return this.stmts.range.all(from, to) as Row[];
  }

  close(): void {
    this.db.close();
  }
}
