import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingRow } from '../store/recordings-store.js';
import { startHarness, type Harness } from '../testing/harness.js';

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, tries = 200): Promise<T> => {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('sync control: one sync at a time, live progress, one pipeline per recording', () => {
  let h: Harness;
  let releaseScan: () => void = () => undefined;
  const scanned: string[] = [];
  beforeAll(async () => {
    h = await startHarness({
      box: {
        shows: [
          {
            title: 'Slow Show',
            items: [
              { id: '111111111', title: 'S1 E1 - Quick - Mon 01 Jul', length: 20_000 },
              { id: '111111112', title: 'S1 E2 - Slow - Tue 02 Jul', length: 4_000_000, bytesPerSecond: 400_000 },
            ],
          },
        ],
      },
      deps: {
        adScan: (row: RecordingRow) => {
          scanned.push(row.box_id);
          return new Promise<void>((resolve) => (releaseScan = resolve));
        },
      },
    });
    await h.api.post('/api/shows', { name: 'slow', dest_folder: 'Slow' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it('starts a sync with 202 and reports the running one with 409 on a second request', async () => {
    const first = await h.api.post('/api/sync');
    expect(first.status).toBe(202);
    expect(first.body.run).toMatchObject({ status: 'running', trigger: 'manual', finished_at: null });
    const second = await h.api.post('/api/sync');
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'sync_running', run_id: first.body.run.id });
    expect((await h.api.get('/api/sync')).body.running.id).toBe(first.body.run.id);
  });

  it('attaches live download progress to the row being downloaded, null elsewhere', async () => {
    const rows = await waitFor('progress on the slow item', async () => {
      const list = (await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; progress: Record<string, unknown> | null }>;
      const slow = list.find((r) => r.box_id === '111111112');
      return slow?.progress && typeof slow.progress.percent === 'number' && (slow.progress.percent as number) > 0 && slow.progress.detail ? list : undefined;
    });
    const slow = rows.find((r) => r.box_id === '111111112')!;
    expect(slow).toMatchObject({ status: 'downloading', error: null });
    // Only the API view says so: the stored row stays `partial` (the truth if the process died now).
    expect(h.service.recordings.get('111111112')).toMatchObject({ status: 'partial', error: 'download in progress' });
    expect(slow.progress).toMatchObject({ phase: 'downloading', detail: expect.stringMatching(/B\/s$/), etaLabel: expect.any(String) });
    expect(slow.progress!.percent as number).toBeLessThan(100);
    expect(rows.find((r) => r.box_id === '111111111')).toMatchObject({ status: 'done', progress: null });
  });

  it('runs a manual ad scan in the background (202), 409 while that recording is in any pipeline', async () => {
    const accepted = await h.api.post('/api/recordings/111111111/ad-scan');
    expect(accepted.status).toBe(202);
    expect(scanned).toEqual(['111111111']);
    const again = await h.api.post('/api/recordings/111111111/ad-scan');
    expect(again.status).toBe(409);
    // The slow item is held by the sync's download.
    const busy = await h.api.post('/api/recordings/111111112/ad-scan');
    expect(busy.status).toBe(409);
    expect(busy.body.error.owner).toMatch(/^sync:/);
    releaseScan();
    await waitFor('guard released', async () => (h.service.guard.isBusy('111111111') ? undefined : true));
  });

  it('lists and clears the sync history; a running run survives the clearing', async () => {
    const runs = (await h.api.get('/api/sync-runs')).body.runs;
    expect(runs).toHaveLength(1);
    expect((await h.api.delete('/api/sync-runs')).body).toEqual({ deleted: 0 });
    expect((await h.api.get('/api/sync-runs?limit=0')).body.error.field).toBe('limit');
    expect((await h.api.get(`/api/sync-runs/${runs[0].id}`)).body.run.status).toBe('running');
  });
});
