/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) in its own
 * process, one after another, so figures do not disturb each other. Each prints its own figures.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: 'silent' } });
  if (res.status !== 0) {
    failed++;
    console.log(`!!! ${file} exited with ${res.status}`);
  }
}
process.exit(failed ? 1 : 0);
