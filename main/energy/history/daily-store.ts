import type { Migration } from '../../core/sqlite.js';
import type { EnergyKwh } from '../tariff/ledger.js';
import { DayTable } from './day-table.js';

/**
 * Per-local-day totals in `<dataDir>/energy/daily.db`, kept for years: a row is a few hundred bytes,
 * so ten years are about a megabyte. Independent of the raw-history retention.
 */
export interface DailyRow extends EnergyKwh {
  date: string;
  /** Money is null for a day closed without a tariff. */
  importCost: number | null;
  feedIn: number | null;
  superExportCredit: number | null;
  zeroDrawCredit: number | null;
  supply: number | null;
  net: number | null;
  currency: string | null;
  /** Milliseconds of the day covered by integrated polls (a full day is 86,400,000, DST aside). */
  coveredMs: number;
}

const COLUMNS = {
  date: 'date',
  solarKwh: 'solar_kwh',
  homeKwh: 'home_kwh',
  importKwh: 'import_kwh',
  exportKwh: 'export_kwh',
  batteryChargeKwh: 'battery_charge_kwh',
  batteryDischargeKwh: 'battery_discharge_kwh',
  importCost: 'import_cost',
  feedIn: 'feed_in',
  superExportCredit: 'super_export_credit',
  zeroDrawCredit: 'zero_draw_credit',
  supply: 'supply',
  net: 'net',
  currency: 'currency',
  coveredMs: 'covered_ms',
} as const satisfies Record<keyof DailyRow, string>;

const migrations: Migration[] = [
  {
    version: 1,
    name: 'daily totals',
    up(db) {
      db.exec(`CREATE TABLE days (
        date TEXT PRIMARY KEY,
        solar_kwh REAL NOT NULL, home_kwh REAL NOT NULL, import_kwh REAL NOT NULL, export_kwh REAL NOT NULL,
        battery_charge_kwh REAL NOT NULL, battery_discharge_kwh REAL NOT NULL,
        import_cost REAL, feed_in REAL, super_export_credit REAL, zero_draw_credit REAL, supply REAL, net REAL, currency TEXT,
        covered_ms INTEGER NOT NULL
      ) WITHOUT ROWID`);
    },
  },
];

/** The daily totals, one row a local day. */
export class DailyStore extends DayTable<DailyRow> {
  constructor(file: string) {
    super(file, COLUMNS, migrations);
  }
}
