import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { repoRoot } from '../../core/paths.js';
import { createEnergyService, type EnergyService } from '../index.js';

/**
 * Imports read only what they were given (issue 37 item 4), over real HTTP to a running bridge:
 * regular files inside the chosen folder, a `samples` that is a plain table, answers with counts and
 * plain reasons. The folders are copies of the real sigen-home-bridge anchor data.
 */
const ANCHOR = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'anchors', 'sigen-home-bridge');
const suite = fs.existsSync(path.join(ANCHOR, 'history.db')) ? describe : describe.skip;
if (suite === describe.skip) console.warn(`energy import file tests skipped: the sigen-home-bridge anchor fixture is not at ${ANCHOR}`);

const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};
/** A writable copy of the anchor folder (settings.json, history.db, hap-persist). */
function anchorCopy(): string {
  const d = tmp('sigen-anchor-');
  for (const name of ['settings.json', 'history.db']) fs.copyFileSync(path.join(ANCHOR, name), path.join(d, name));
  fs.chmodSync(path.join(d, 'history.db'), 0o600);
  return d;
}

let service: EnergyService;
// A device file read to its end or an endless view would never answer: a regression shows as the
// request's abort (20 s), not as a timing figure (a busy machine stretches any figure).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test client: tests assert bodies field by field
async function preview(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.url}/api/import/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

suite('the energy import preview reads only what it was given', () => {
  beforeAll(async () => {
    service = createEnergyService({ dataDir: tmp('energy-import-files-'), host: '127.0.0.1', port: 0, env: {} }, { logger: silentLogger });
    await service.start();
  });
  afterAll(async () => {
    await service?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('refuses a device file handed as a history file with a plain 400 naming the field, at once', async () => {
    const dir = anchorCopy();
    const res = await preview({ from: 'sigen-home-bridge', dir, historyFiles: ['/dev/zero'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'historyFiles.0' });
    expect(res.body.error.message).toMatch(/device file, not a regular file/);
  });

  it('refuses a FIFO handed as a history file, and never opens one named history.json in the folder', async () => {
    const dir = anchorCopy();
    const fifo = path.join(tmp('sigen-fifo-'), 'history.json');
    execFileSync('mkfifo', [fifo]);
    const given = await preview({ from: 'sigen-home-bridge', dir, historyFiles: [fifo] });
    expect(given.status).toBe(400);
    expect(given.body.error.field).toBe('historyFiles.0');
    expect(given.body.error.message).toMatch(/FIFO/);
    execFileSync('mkfifo', [path.join(dir, 'history.json')]);
    const inFolder = await preview({ from: 'sigen-home-bridge', dir });
    expect(inFolder.status).toBe(200);
    expect(inFolder.body.history.files.map((f: { file: string }) => path.basename(f.file))).toEqual(['history.db']);
  });

  it('refuses a history.db whose samples is a view, with a plain 400 at once (the view would never end)', async () => {
    const dir = anchorCopy();
    const db = new Database(path.join(dir, 'history.db'));
    db.exec('ALTER TABLE samples RENAME TO real_samples');
    // Counting this view never ends: it is only safe because it is never run.
    db.exec('CREATE VIEW samples AS WITH RECURSIVE n(t) AS (SELECT 0 UNION ALL SELECT t + 1 FROM n) SELECT t, 0 AS pvPower, 0 AS gridPower, 0 AS batteryPower, 0 AS loadPower FROM n');
    db.close();
    const res = await preview({ from: 'sigen-home-bridge', dir });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'dir' });
    expect(res.body.error.message).toMatch(/"samples" view, not a table/);
  });

  it('a settings.json that leads outside the folder is not read; a broken one is reported without quoting it', async () => {
    const dir = anchorCopy();
    const secret = path.join(tmp('sigen-secret-'), 'secret.json');
    fs.writeFileSync(secret, JSON.stringify({ sigen: { host: 'top-secret-host' }, poll: { defaultIntervalMs: 5000 } }));
    fs.rmSync(path.join(dir, 'settings.json'));
    fs.symlinkSync(secret, path.join(dir, 'settings.json'));
    const linked = await preview({ from: 'sigen-home-bridge', dir });
    expect(linked.status).toBe(200);
    expect(linked.body.settings.found).toBe(false);
    expect(JSON.stringify(linked.body)).not.toContain('top-secret-host');

    // Its own name and section, then text that is not JSON: the reason says where, not what.
    fs.rmSync(path.join(dir, 'settings.json'));
    fs.writeFileSync(path.join(dir, 'history.json'), '[{"t": 1, "pvPower": 1}, root:x:0:0:private-words');
    const broken = await preview({ from: 'sigen-home-bridge', dir });
    expect(broken.status).toBe(200);
    const json = broken.body.history.files.find((f: { file: string }) => f.file.endsWith('history.json'));
    expect(json.damage).toMatch(/^not valid JSON/);
    expect(JSON.stringify(broken.body)).not.toContain('private-words');
    expect(JSON.stringify(broken.body)).not.toContain('root:x');
  });

  it('a history file that does not exist is reported plainly, never as a raw filesystem error', async () => {
    const dir = anchorCopy();
    const missing = path.join(dir, 'no-such-history.json');
    const res = await preview({ from: 'sigen-home-bridge', dir, historyFiles: [missing] });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/ENOENT|no such file/);
    expect(res.body.history.files.at(-1)).toMatchObject({ rows: 0, damage: 'missing or cannot be read' });
  });
});
