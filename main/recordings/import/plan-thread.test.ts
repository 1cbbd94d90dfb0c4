import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planFetcharrOffThread } from './plan-thread.js';
import { copyFixture, FETCHARR_FIXTURE, fixtureAvailable } from './testing.js';

/** The fetcharr folder is read on a thread of its own, stopped when its time budget runs out. */
const suite = fixtureAvailable() ? describe : describe.skip;
if (!fixtureAvailable()) console.warn(`fetcharr plan thread tests skipped: the fetcharr anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);

suite('reading a fetcharr folder off the request thread', () => {
  const copy = fixtureAvailable() ? copyFixture() : null;
  afterAll(() => copy && fs.rmSync(copy.root, { recursive: true, force: true }));
  const opts = () => ({ dir: copy!.config, mediaRootFrom: '/media', mediaRootTo: copy!.media, now: Date.now() });

  it('plans the real anchor folder on the thread', async () => {
    const plan = await planFetcharrOffThread(opts());
    expect(plan.recordings.counts).toMatchObject({ total: 5, done: 4, files_found: 4 });
  });

  it("answers the planner's own refusal as the same 400", async () => {
    await expect(planFetcharrOffThread({ ...opts(), dir: path.join(copy!.root, 'missing') })).rejects.toMatchObject({ status: 400, code: 'not_fetcharr_folder', field: 'dir' });
  });

  it('stops when the time budget runs out: a plain 422', async () => {
    await expect(planFetcharrOffThread(opts(), { ms: 1, heapMb: 256 })).rejects.toMatchObject({ status: 422, code: 'import_budget', message: expect.stringMatching(/^Reading the fetcharr folder took longer than 0 s/) });
  });
});
