/**
 * `tsx scripts/import-sigen.ts [--from sigen-home-bridge] DIR [--data-dir DIR] [--history-file F] [--dry-run]`:
 * imports a sigen-home-bridge data folder into this bridge's data folder (DATA_DIR). The
 * `npm run import` dispatcher calls the same `runSigenImportCli`.
 */
import { runSigenImportCli } from '../main/energy/import/cli.js';

process.exitCode = await runSigenImportCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
