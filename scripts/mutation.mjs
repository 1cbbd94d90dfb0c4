#!/usr/bin/env node
// `npm run mutation [module…]`: runs Stryker over each named module (all of them by default), one
// at a time, then prints the mutation score per module. Slow (minutes per module); not in `npm test`.
// `--force` is passed on to Stryker: every mutant is tested again, none reused from the incremental file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import process from 'node:process';
import { MUTATION_MODULES } from './mutation-modules.mjs';

const args = process.argv.slice(2);
const flags = args.filter((a) => a === '--force');
const names = args.filter((a) => a !== '--force');
for (const n of names) if (!MUTATION_MODULES[n]) throw new Error(`unknown module ${n}: one of ${Object.keys(MUTATION_MODULES).join(', ')}`);
const run = names.length > 0 ? names : Object.keys(MUTATION_MODULES);

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Stryker's mutation score from its JSON report: detected / (detected + undetected). */
function score(file) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  let detected = 0;
  let undetected = 0;
  for (const f of Object.values(report.files)) {
    for (const m of f.mutants) {
      if (DETECTED.has(m.status)) detected++;
      else if (UNDETECTED.has(m.status)) undetected++;
    }
  }
  return { detected, undetected, score: detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected) };
}

const rows = [];
let failed = false;
for (const name of run) {
  const res = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', ...flags], { stdio: 'inherit', env: { ...process.env, MUTATION_MODULE: name } });
  if (res.status !== 0) {
    failed = true;
    rows.push(`${name.padEnd(14)} stryker exited ${res.status}`);
    continue;
  }
  const s = score(`reports/mutation/${name}.json`);
  rows.push(`${name.padEnd(14)} ${MUTATION_MODULES[name].mutate.padEnd(40)} ${s.score.toFixed(2).padStart(6)} %  (${s.detected} detected, ${s.undetected} undetected)`);
}
process.stdout.write(`\nmutation score per module\n${rows.join('\n')}\n`);
process.exit(failed ? 1 : 0);
