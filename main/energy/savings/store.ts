import type { Migration } from '../../core/sqlite.js';
import { DayTable } from '../history/day-table.js';
import type { SavingsDay } from './ledger.js';

const COLUMNS = {
  date: 'date',
  solarKwh: 'solar_kwh',
  homeKwh: 'home_kwh',
  importKwh: 'import_kwh',
  exportKwh: 'export_kwh',
  batteryChargeKwh: 'battery_charge_kwh',
  batteryDischargeKwh: 'battery_discharge_kwh',
  importKwhWithoutBattery: 'import_kwh_without_battery',
  exportKwhWithoutBattery: 'export_kwh_without_battery',
  paid: 'paid',
  paidWithoutBattery: 'paid_without_battery',
  paidWithoutSolar: 'paid_without_solar',
  currency: 'currency',
  coveredMs: 'covered_ms',
} as const satisfies Record<keyof SavingsDay, string>;

const migrations: Migration[] = [
  {
    version: 1,
    name: 'savings days',
    up(db) {
      db.exec(`CREATE TABLE days (
        date TEXT PRIMARY KEY,
        solar_kwh REAL NOT NULL, home_kwh REAL NOT NULL, import_kwh REAL NOT NULL, export_kwh REAL NOT NULL,
        battery_charge_kwh REAL NOT NULL, battery_discharge_kwh REAL NOT NULL,
        import_kwh_without_battery REAL NOT NULL, export_kwh_without_battery REAL NOT NULL,
        paid REAL, paid_without_battery REAL, paid_without_solar REAL, currency TEXT,
        covered_ms INTEGER NOT NULL
      ) WITHOUT ROWID`);
    },
  },
];

/**
 * Per-local-day savings figures in `<dataDir>/energy/savings.db`, written as each day closes (with
 * the tariff in force that day) and kept for years, like the daily totals.
 */
export class SavingsStore extends DayTable<SavingsDay> {
  constructor(file: string) {
    super(file, COLUMNS, migrations);
  }
}
