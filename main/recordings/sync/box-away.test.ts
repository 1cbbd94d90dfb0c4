import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { sha256File, startHarness, type Harness } from '../testing/harness.js';
import { noBoxFound } from './box-errors.js';

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, tries = 400): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
};

type Row = { box_id: string; status: string; error: string | null; file_path: string; progress: { phase: string } | null };

/** Which request switches the box off just before it is sent. */
let trap: ((url: string, init?: RequestInit) => boolean) | null = null;

describe('the box going away at each step of a sync', () => {
  let h: Harness;
  let host = '';
  const slow = '730000003';
  const rows = async () => new Map(((await h.api.get('/api/recordings')).body.recordings as Row[]).map((r) => [r.box_id, r]));
  const boxOffThen = (when: (url: string, init?: RequestInit) => boolean) => {
    trap = when;
  };

  beforeAll(async () => {
    const show = sampleShow('Gardening Australia', 730000001, 3, (i) => (i === 2 ? 1_200_000 : 30_000), 33);
    show.items[2]!.bytesPerSecond = 400_000;
    h = await startHarness({
      box: { shows: [show] },
      deps: {
        fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
          const url = String(input);
          if (trap?.(url, init)) {
            trap = null;
            await h.box.stop();
          }
          return fetch(input, init);
        }) as typeof fetch,
      },
    });
    host = new URL(h.box.baseUrl).host;
    await h.api.post('/api/shows', { name: 'gardening', dest_folder: 'Gardening' });
    // A small tolerance: a 1.2 MB item cut anywhere is then a truncation, not `done`.
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, size_tolerance_bytes: 1000 });
  });
  afterAll(async () => h.cleanup());

  it('off before the sync: the run says which address it tried, why, and what to do', async () => {
    await h.box.stop();
    const run = await h.syncAndWait();
    expect(run.status).toBe('error');
    expect(run.summary.error).toBe(`cannot reach the box at ${host}: connection refused — is it on? check the box address in settings`);
    const shows = await h.api.post('/api/box-shows');
    expect(shows.status).toBe(502);
    expect(shows.body.error).toMatchObject({ code: 'box_unreachable', message: run.summary.error });
    await h.box.start();
  });

  it('off between the description and the listing: says the listing failed and that the next sync retries', async () => {
    boxOffThen((url, init) => init?.method === 'POST' && url.endsWith('/web/cds_control'));
    const run = await h.syncAndWait();
    expect(run.status).toBe('error');
    expect(run.summary.error).toBe(`cannot list the recordings on the box at ${host}: connection refused — is it still on? the next sync tries again`);
    await h.box.start();
  });

  it('off between the listing and the downloads: each item names the box and the cause', async () => {
    boxOffThen((_url, init) => init?.method === 'HEAD');
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'partial', summary: { failed: 3, downloaded: 0 } });
    for (const r of (await rows()).values()) {
      expect(r).toMatchObject({ status: 'failed', error: `cannot download from the box at ${host}: connection refused — is it still on? the next sync tries again` });
    }
    await h.box.start();
  });

  it('off in the middle of a body: the row is partial with the byte gap, then resumes and shows it is downloading', async () => {
    const started = await h.api.post('/api/sync');
    expect(started.status).toBe(202);
    const file = await waitFor('bytes of the slow item on disk', async () => {
      const r = (await rows()).get(slow);
      return r?.progress && fs.existsSync(`${r.file_path}.partial`) && fs.statSync(`${r.file_path}.partial`).size > 200_000 ? r.file_path : undefined;
    });
    await h.box.stop();
    await h.service.engine.current()?.done;
    const cut = (await rows()).get(slow)!;
    expect(cut.status).toBe('partial');
    expect(cut.error).toMatch(/^short by \d+ bytes: got \d+ of 1200000 \(transfer interrupted: .+\); the next sync resumes$/);
    expect(cut.progress).toBeNull();

    await h.box.start();
    const resumed = await h.api.post('/api/sync');
    expect(resumed.status).toBe(202);
    // While it resumes, the row says it is downloading, not its old "short by" text.
    const during = await waitFor('the resumed row', async () => {
      const r = (await rows()).get(slow);
      return r?.progress ? r : undefined;
    });
    expect(during).toMatchObject({ status: 'downloading', error: null });
    // What is stored meanwhile (the truth if the process dies) says it is resuming, not "short by".
    expect(h.service.recordings.get(slow)!.error).toMatch(/^download in progress \(resuming at [\d.]+ (KiB|MiB) of 1\.14 MiB\)$/);
    await h.service.engine.current()?.done;
    const done = (await rows()).get(slow)!;
    expect(done).toMatchObject({ status: 'done', error: null });
    expect(sha256File(file)).toBe(h.box.hash(slow));
  });
});

describe('a network search that finds devices but no box', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 740000001, 1, () => 1000)] }, advertiseBox: false });
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids' });
  });
  afterAll(async () => h.cleanup());

  it('lists every device that answered with the reason it is not the box', async () => {
    const run = await h.syncAndWait();
    expect(run.status).toBe('error');
    const host = new URL(h.box.baseUrl).host;
    expect(run.summary.error).toMatch(new RegExp(`^no recording box found: 2 devices answered but none is the box: `));
    expect(run.summary.error).toContain(`${host} (not the recording box (manufacturerURL http://router.example/))`);
    expect(run.summary.error).toContain(`${host} (broken description: `);
    expect(run.summary.error).toMatch(/— is the box on\? or set the box address in settings$/);
    const shows = await h.api.post('/api/box-shows');
    expect(shows.body.error).toMatchObject({ code: 'box_not_found', message: run.summary.error });
    const discover = await h.api.post('/api/discover-box');
    expect(discover.body).toMatchObject({ boxes: [], message: run.summary.error });
  });

  it('names the cause when the devices that answered cannot be reached, and says when none answered', async () => {
    await h.box.stop();
    const run = await h.syncAndWait();
    expect(run.summary.error).toMatch(/^no recording box found: 2 devices answered but none is the box: 127\.0\.0\.1:\d+ \(unreachable: connection refused\); /);
    expect(noBoxFound([])).toBe(
      'no recording box answered the network search (SSDP) — is the box on and on the same network as this computer? or set the box address in settings',
    );
  });
});
