import path from 'node:path';
import { DurableStore } from '../../history/durable-store.js';
import { SAMPLE_FIELDS, type HistorySample } from '../../history/sample.js';

/** Writes `rows` samples one second apart ending at `end` straight into the history file (heavy-read test and bench). */
export function writeSecondSamples(dataDir: string, end: number, rows: number): void {
  const store = new DurableStore(path.join(dataDir, 'energy', 'history.db'));
  const first = end - (rows - 1) * 1000;
  for (let from = 0; from < rows; from += 50_000) {
    const batch: HistorySample[] = [];
    for (let i = from; i < Math.min(rows, from + 50_000); i++) {
      const t = first + i * 1000;
      const s = { t } as HistorySample;
      SAMPLE_FIELDS.forEach((f, j) => (s[f] = Math.round(Math.sin(t / 600_000 + j) * 400_000) / 100));
      s.soc = (i % 1000) / 10;
      batch.push(s);
    }
    store.insertMany(batch);
  }
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
}
