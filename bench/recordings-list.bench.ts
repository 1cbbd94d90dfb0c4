/**
 * `GET /api/recordings` with 10,000 rows (a few with live progress) over real loopback HTTP:
 * median and p95 of 30 requests after 3 warm-ups. Target: < 50 ms. Baseline in the same run: the
 * same rows read straight from SQLite and serialised by a bare Node HTTP server on every request.
 */
import fs from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';
import path from 'node:path';
import { silentLogger } from '../main/core/logger.js';
import { openDatabase } from '../main/core/sqlite.js';
import { recordingMigrations } from '../main/recordings/store/migrations.js';
import { createRecordingsStore } from '../main/recordings/store/recordings-store.js';
import { createRecordingService } from '../main/recordings/service.js';
import { tempDir, testConfig } from '../main/recordings/testing/harness.js';
import { figure, median, timeIt } from './report.js';

const ROWS = 10_000;
const dir = tempDir('recordings-list-bench-');
const config = testConfig(dir, 1);

const db = openDatabase(config.dbPath, recordingMigrations);
const store = createRecordingsStore(db);
const statuses = ['done', 'done', 'done', 'partial', 'skipped', 'failed'] as const;
db.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    const status = statuses[i % statuses.length]!;
    store.writeOutcome(
      {
        box_id: String(900_000_000 + i),
        show_id: null,
        box_udn: 'uuid:fetch-box',
        show_title: `Show ${i % 40}`,
        box_title: `S${1 + (i % 9)} E${1 + (i % 24)} - Episode title number ${i} & friends - Wed 01 Jul`,
        season: 1 + (i % 9),
        episode: 1 + (i % 24),
        status,
        error: status === 'failed' ? 'the box answered HTTP 500' : status === 'skipped' ? 'currently recording' : null,
        size: status === 'done' ? 930_528_256 + i : null,
        expected_size: 930_528_256 + i,
        file_path: path.join('/media/tv', `Show ${i % 40}`, 'Season 01', `Show ${i % 40} - S01E${i} - Episode title number ${i}.ts`),
        downloaded_at: status === 'done' ? Date.UTC(2026, 0, 1) + i * 60_000 : null,
      },
      Date.UTC(2026, 0, 1) + i * 60_000,
    );
  }
})();
db.close();

const service = createRecordingService(config, { logger: silentLogger });
await service.start();
for (let i = 0; i < 5; i++) service.progress.set(String(900_000_000 + i * 7), { phase: 'downloading', percent: 10 * i, detail: '12.0 MB/s', etaSeconds: 60, etaLabel: '1m 00s' });

// The baseline: what a plain implementation costs on this machine right now.
const plainDb = new Database(config.dbPath, { readonly: true });
const plain = http.createServer((_req, res) => {
  const rows = plainDb.prepare('SELECT * FROM recordings ORDER BY box_id').all();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ recordings: rows }));
});
await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
const plainUrl = `http://127.0.0.1:${(plain.address() as { port: number }).port}/`;
const baseline: number[] = [];
for (let i = 0; i < 33; i++) {
  const t = await timeIt(async () => (await fetch(plainUrl)).text());
  if (i >= 3) baseline.push(t.ms);
}
await new Promise((r) => plain.close(r));
plainDb.close();

const url = `${service.url}/api/recordings`;
let bytes = 0;
let text = '';
const get = async () => {
  const res = await fetch(url);
  text = await res.text();
  bytes = text.length;
};
const parse = () => {
  const body = JSON.parse(text) as { recordings: Array<{ progress: unknown }> };
  if (body.recordings.length !== ROWS) throw new Error(`expected ${ROWS} rows, got ${body.recordings.length}`);
  if (body.recordings.filter((r) => r.progress !== null).length !== 5) throw new Error('expected 5 rows with progress');
};
const cold = (await timeIt(get)).ms; // the first request builds the row cache from SQLite
for (let i = 0; i < 3; i++) await get();
const times: number[] = [];
const parses: number[] = [];
for (let i = 0; i < 30; i++) {
  times.push((await timeIt(get)).ms);
  parses.push((await timeIt(parse)).ms);
}
// During a sync every outcome writes a row; the next poll must stay fast.
const afterWrite: number[] = [];
for (let i = 0; i < 30; i++) {
  const id = String(900_000_000 + ((i * 331) % ROWS));
  const row = service.recordings.get(id)!;
  service.recordings.writeOutcome({ ...row, status: 'done', error: null, downloaded_at: Date.now() }, Date.now());
  afterWrite.push((await timeIt(get)).ms);
}
afterWrite.sort((a, b) => a - b);
times.sort((a, b) => a - b);
parses.sort((a, b) => a - b);
const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`${ROWS} rows (5 with live progress), ${Math.round(bytes / 1024)} KiB of JSON per response, 30 requests over loopback HTTP; machine load average ${load}`);
figure('GET /api/recordings median (request to last byte)', median(times), 'ms', { max: 50 });
figure('GET /api/recordings p95 (request to last byte)', times[28]!, 'ms', { max: 50 });
figure('baseline: same rows straight from SQLite, serialised per request (median)', median(baseline), 'ms');
figure('GET /api/recordings / baseline (medians)', median(times) / median(baseline), 'x', { max: 1 });
figure('GET right after a row write (median)', median(afterWrite), 'ms', { max: 50 });
for (let i = 0; i < 5; i++) service.progress.clear(String(900_000_000 + i * 7));
const idleTimes: number[] = [];
for (let i = 0; i < 30; i++) idleTimes.push((await timeIt(get)).ms);
idleTimes.sort((a, b) => a - b);
figure('GET with nothing in progress (median; body reused until a row changes)', median(idleTimes), 'ms', { max: 50 });
figure('first GET of the process (includes the client connection and JIT warm-up)', cold, 'ms');
figure('client JSON.parse of the response, median (not part of the target)', median(parses), 'ms');
await service.stop();
fs.rmSync(dir, { recursive: true, force: true });
