/**
 * The shape of better-sqlite3 12's abort under Node 24 (`Assertion failed: (env) != nullptr` in
 * `node::RemoveEnvironmentCleanupHook`, from `Statement::~Statement()`): worker threads that hold
 * prepared statements on their own connections and exit (naturally, by process.exit inside the
 * worker, or terminated mid-query) while the heap is under GC pressure, beside a writer on the main
 * thread that keeps inserting; then the process itself exits with connections and statements open.
 *
 * Usage: node --expose-gc sqlite-teardown-child.ts <dir> [rounds] [workersPerRound] (Node's own type
 * stripping: erasable TypeScript only)
 * SQLITE_TEARDOWN_MODULE=<path to a better-sqlite3 package> runs the same against another build
 * (how the 12.x abort was reproduced). Prints one JSON summary line on success.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const modulePath = require.resolve(process.env.SQLITE_TEARDOWN_MODULE || 'better-sqlite3');
type Statement = { run(...a: unknown[]): unknown; get(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] };
type Database = { prepare(sql: string): Statement; pragma(s: string): unknown; exec(sql: string): void; transaction<T extends (...a: never[]) => unknown>(fn: T): T };
const Db = require(modulePath) as new (file: string, opts?: object) => Database;

const [dir, roundsArg, workersArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: sqlite-teardown-child.ts <dir> [rounds] [workersPerRound]');
const rounds = Number(roundsArg ?? 6);
const perRound = Number(workersArg ?? 4);
const file = path.join(dir, 'teardown.db');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const db = new Db(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF'); // durability is not the point here: many commits, quickly
db.exec('CREATE TABLE IF NOT EXISTS samples (t INTEGER PRIMARY KEY, soc REAL, pv REAL, load REAL)');
let t = 0;
/** One writer batch the way busy code writes: a statement prepared for the call, used in a transaction, dropped. */
function writeBatch(n: number): void {
  const insert = db.prepare('INSERT OR REPLACE INTO samples (t, soc, pv, load) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++, t++) insert.run(t % 2_000, t % 100, Math.sin(t) * 5000, 800 + (t % 37));
  })();
}
writeBatch(2000);

// The table stays at 2,000 rows (the writer replaces them in a ring), so reads stay cheap however
// long the writer runs.
// Each worker: its own read connection, 100 statements kept alive, 300 made and dropped with
// garbage around them and explicit GCs, then it leaves in one of three ways with everything open.
const workerSource = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { readonly: true });
const held = [];
for (let i = 0; i < 100; i++) {
  const st = db.prepare('SELECT t, soc, pv FROM samples WHERE t > ? ORDER BY t LIMIT 5 -- ' + i);
  st.all(i);
  held.push(st);
}
let junk = [];
for (let i = 0; i < 300; i++) {
  db.prepare('SELECT count(*) AS n FROM samples WHERE t > ? -- ' + (i % 300)).get(i);
  junk.push(new Array(64).fill(i));
  if (i % 100 === 0) { junk = []; globalThis.gc(); }
}
const iter = db.prepare('SELECT * FROM samples').iterate();
iter.next();
parentPort.postMessage(held.length);
if (workerData.mode === 'exit') process.exit(0);
if (workerData.mode === 'terminate') { for (;;) { iter.next(); held[0].all(1); } }
`;

const modes = ['return', 'exit', 'terminate'] as const;
let workersRun = 0;
const exits: Record<string, number> = {};
for (let r = 0; r < rounds; r++) {
  const running = Array.from({ length: perRound }, (_, i) => {
    const mode = modes[(r + i) % modes.length]!;
    const w = new Worker(workerSource, { eval: true, workerData: { modulePath, file, mode } });
    workersRun++;
    return new Promise<void>((resolve, reject) => {
      w.once('message', () => {
        if (mode === 'terminate') void w.terminate();
      });
      w.once('error', reject);
      w.once('exit', (code) => {
        exits[`${mode}:${code}`] = (exits[`${mode}:${code}`] ?? 0) + 1;
        resolve();
      });
    });
  });
  // The writer under load while the workers read, exit and are collected.
  while (await Promise.race([Promise.all(running).then(() => true), new Promise<false>((res) => setImmediate(() => res(false)))]) === false) {
    writeBatch(200);
    db.prepare('SELECT max(t) FROM samples').get();
  }
  gc();
}
// The writer under load with no event-loop turn (the history writer's shape): 80,000 one-row
// writes, each through its own statement and transaction, dropped and collected as the heap fills.
for (let i = 0; i < 80_000; i++) writeBatch(1);
gc();
process.stdout.write(`${JSON.stringify({ ok: true, workers: workersRun, exits, rows: t })}\n`);
// Exit with the connection and its statements still open: teardown runs their destructors.
process.exit(0);
