import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.js';
import type { ProgressView } from './progress-feed.js';

/** Reads Server-Sent Events from the service over a real socket; `next(ok)` waits for the next event (after the one it last gave) that passes `ok`. */
async function listen(url: string) {
  const stop = new AbortController();
  const res = await fetch(url, { signal: stop.signal });
  const seen: ProgressView[] = [];
  const waiting: Array<{ ok: (v: ProgressView) => boolean; resolve: (v: ProgressView) => void }> = [];
  let cursor = 0;
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const v = JSON.parse(data.slice(6)) as ProgressView;
          seen.push(v);
          for (const w of waiting.splice(0)) {
            if (!w.ok(v)) waiting.push(w);
            else {
              cursor = seen.length;
              w.resolve(v);
            }
          }
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    seen,
    next: (ok: (v: ProgressView) => boolean) => {
      const at = seen.findIndex((v, i) => i >= cursor && ok(v));
      if (at < 0) return new Promise<ProgressView>((resolve) => waiting.push({ ok, resolve }));
      cursor = at + 1;
      return Promise.resolve(seen[at]!);
    },
    close: () => stop.abort(),
  };
}

describe('GET /api/progress/events: live progress as events, the list read only when a row changes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      box: { shows: [{ title: 'Slow Show', items: [{ id: '222222221', title: 'S1 E1 - Slow - Mon 01 Jul', length: 3_000_000, bytesPerSecond: 1_000_000 }] }] },
    });
    await h.api.post('/api/shows', { name: 'slow', dest_folder: 'Slow' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
  });
  afterAll(async () => h.cleanup());

  it("streams the download's progress with the running sync, then the finished row as a new version", async () => {
    const stream = await listen(`${h.service.url}/api/progress/events`);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const idle = await stream.next(() => true);
    expect(idle).toMatchObject({ progress: {}, sync_running: null });

    const started = await h.api.post('/api/sync');
    const runId = started.body.run.id as number;
    const first = await stream.next((v) => (v.progress['222222221']?.percent ?? 0) > 0);
    expect(first.sync_running).toBe(runId);
    expect(first.progress['222222221']).toMatchObject({ phase: 'downloading', detail: expect.stringMatching(/B\/s$/) });
    const later = await stream.next((v) => (v.progress['222222221']?.percent ?? 0) > first.progress['222222221']!.percent!);
    // While the download runs no stored row changes: the page has no reason to read the list.
    expect(later.version).toBe(first.version);

    const done = await stream.next((v) => v.sync_running === null && Object.keys(v.progress).length === 0);
    expect(done.version).not.toBe(first.version);
    expect((await h.api.get('/api/recordings')).body.recordings[0]).toMatchObject({ box_id: '222222221', status: 'done', progress: null });
    stream.close();
  });

  it('refuses a query it does not know with a 400 naming it', async () => {
    const res = await h.api.get('/api/progress/events?since=3');
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('since');
  });
});
