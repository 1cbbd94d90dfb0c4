/**
 * `npm run import -- --from sigen-home-bridge DIR [...]` or `npm run import -- --from fetcharr DIR [...]`:
 * brings a data folder of one of the programs this app replaces into this app's data folder. Each
 * importer parses its own options (`--help` after `--from X` prints them); this only picks one.
 */

const USAGE = `usage: npm run import -- --from sigen-home-bridge DIR [options]
       npm run import -- --from fetcharr DIR [--media-root-from /media] [--media-root-to DIR] [options]
Add --help after --from NAME for that importer's options. Stop the app first (or restart it after).`;

/** The value of `--from` (`--from X` or `--from=X`), or null when there is none. */
export function importSource(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--from') return args[i + 1] ?? null;
    if (a.startsWith('--from=')) return a.slice('--from='.length);
  }
  return null;
}

const io = {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  env: process.env,
};
const args = process.argv.slice(2);
const from = importSource(args);
// Each importer loads only when asked for: a mistyped command answers without loading either.
if (from === 'sigen-home-bridge') process.exitCode = await (await import('../main/energy/import/cli.js')).runSigenImportCli(args, io);
else if (from === 'fetcharr') process.exitCode = await (await import('../main/recordings/import/cli.js')).runFetcharrImportCli(args, io);
else {
  io.err(from === null ? 'Which program do you come from? --from is missing.' : `--from ${from}: not a program this app imports from (sigen-home-bridge, fetcharr).`);
  io.err(USAGE);
  process.exitCode = 2;
}
