import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../core/paths.js';
import { previewHistoryOffThread } from './preview-thread.js';

/** The preview's history reads run on a thread of their own, stopped when their time budget runs out. */
const ANCHOR = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'anchors', 'sigen-home-bridge');
const suite = fs.existsSync(path.join(ANCHOR, 'history.json.imported')) ? describe : describe.skip;
if (suite === describe.skip) console.warn(`import preview thread tests skipped: the sigen-home-bridge anchor fixture is not at ${ANCHOR}`);

suite('the import preview thread', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-thread-'));
  const file = path.join(dir, 'history.json');
  fs.copyFileSync(path.join(ANCHOR, 'history.json.imported'), file);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const jobs = [{ job: { file, format: 'sigen-json' as const }, field: 'historyFiles.0' }];

  it('reads the real history.json off the request thread and counts its rows', async () => {
    const [summary] = await previewHistoryOffThread(jobs, 0);
    expect(summary!.rows).toBeGreaterThan(1000);
    expect(summary!.damage).toBeNull();
  });

  it('stops reading when the time budget runs out: a plain 422, the thread gone', async () => {
    const t0 = Date.now();
    await expect(previewHistoryOffThread(jobs, 0, { ms: 1, heapMb: 256 })).rejects.toMatchObject({ status: 422, code: 'import_budget', message: expect.stringMatching(/^Reading the history files took longer than 0 s/) });
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});
