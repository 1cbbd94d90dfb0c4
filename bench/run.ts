/**
 * `npm run bench`: runs every `bench/*.bench.ts` (or those named on the command line) in its own
 * process, one after another, so figures do not disturb each other. Each prints its own figures as
 * it goes; one table of every figure follows at the end. The exit code says whether every benchmark
 * ran correctly, not whether a busy machine met every target.
 * Long runs (soak) run only when named: `npm run bench -- soak`. Arguments starting with `--`
 * (`--minutes=120`) go to each benchmark run rather than choosing files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseBenches } from './choose.js';

const dir = import.meta.dirname;
const { files, passOn } = chooseBenches(fs.readdirSync(dir), process.argv.slice(2));
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-report-')), 'figures.jsonl');
fs.writeFileSync(report, '');
const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file), ...passOn], { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: 'silent', BENCH_REPORT: report } });
  if (res.status !== 0) {
    failed.push(file);
    console.log(`!!! ${file} exited with ${res.status ?? res.signal}`);
  }
}

interface Row {
  bench: string;
  name: string;
  value: number;
  unit: string;
  goal: string;
  met: boolean | null;
}
const rows = fs
  .readFileSync(report, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
fs.rmSync(path.dirname(report), { recursive: true, force: true });
const table = [['bench', 'figure', 'value', 'target', ''], ...rows.map((r) => [r.bench, r.name, `${r.value} ${r.unit}`, r.goal, r.met === null ? '' : r.met ? 'met' : 'MISSED'])];
const widths = table[0]!.map((_, i) => Math.min(i === 1 ? 90 : 40, Math.max(...table.map((r) => r[i]!.length))));
console.log(`\n=== summary (load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${os.cpus().length} cores) ===`);
for (const r of table) console.log(r.map((c, i) => (c.length > widths[i]! ? `${c.slice(0, widths[i]! - 1)}…` : c.padEnd(widths[i]!))).join('  ').trimEnd());
const missed = rows.filter((r) => r.met === false).length;
console.log(`\n${rows.length} figures, ${rows.filter((r) => r.met).length} targets met, ${missed} missed${failed.length ? `; FAILED to run: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);
