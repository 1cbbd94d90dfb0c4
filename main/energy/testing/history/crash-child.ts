/**
 * Child process for crash.test.ts: appends one sample per "poll" as fast as it can and prints each
 * sample's `t` on stdout once `append` has returned (the row is committed), until it is killed.
 * Usage: node --import tsx crash-child.ts <dataDir> <startT>
 * With `upgrade` for <startT> (upgrade.test.ts): runs the upgrade of a version 5 database an hour at
 * a time, printing how far down the tiers are built after each committed step.
 * With `import:<file>` (crash.test.ts): imports that legacy JSON file, printing the rows done after
 * each committed batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../../../core/clock.js';
import { silentLogger } from '../../../core/logger.js';
import { DurableStore } from '../../history/durable-store.js';
import { createHistory } from '../../history/index.js';
import { SAMPLE_FIELDS, type HistorySample } from '../../history/sample.js';

/** Writes to stdout synchronously; the pipe is non-blocking, so a full pipe (EAGAIN) is retried. */
function ack(line: string): void {
  for (;;) {
    try {
      fs.writeSync(1, line);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    }
  }
}

const [dataDir, startArg] = process.argv.slice(2);
if (!dataDir || !startArg) throw new Error('usage: crash-child.ts <dataDir> <startT>|upgrade');
if (startArg === 'upgrade') {
  const store = new DurableStore(path.join(dataDir, 'energy', 'history.db'));
  while (store.upgradeStep()) ack(`${store.tiersFrom()}\n`);
  ack('done\n');
  process.exit(0);
}
const history = createHistory({ dataDir, clock: systemClock, logger: silentLogger, retentionMs: () => 3650 * 86_400_000 });
history.start();
if (startArg.startsWith('import:')) {
  const file = startArg.slice('import:'.length);
  await history.importFiles([{ file, format: 'legacy-json' }], ([r]) => ack(`${r?.progress?.done ?? r?.status}\n`));
  ack('done\n');
  process.exit(0);
}
for (let t = Number(startArg); ; t += 1000) {
  const sample = { t } as HistorySample;
  SAMPLE_FIELDS.forEach((f, i) => (sample[f] = (t / 1000) % 1000 + i));
  history.append(sample);
  ack(`${t}\n`);
}
