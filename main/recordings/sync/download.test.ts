import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, systemClock } from '../../core/clock.js';
import { createBoxSimulator, type BoxSimulator } from '../box/simulator/box-simulator.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { sha256File, tempDir } from '../testing/harness.js';
import { downloadToPartial, probeContentLength } from './download.js';
import { createSocketMediaGet, nodeMediaGet, type MediaGet } from './media-get.js';

const clients: Array<[string, MediaGet]> = [
  ['socket client', createSocketMediaGet()],
  ['node http client', nodeMediaGet],
];

describe.each(clients)('download with Range resume (%s)', (_name, mediaGet) => {
  let box: BoxSimulator;
  let dir: string;
  const get = (id: string, file: string) =>
    downloadToPartial({ url: box.mediaUrl(id), partialPath: path.join(dir, file), get: mediaGet, clock: systemClock, signal: new AbortController().signal });

  beforeAll(async () => {
    box = createBoxSimulator({ shows: [sampleShow('S', 300000001, 5, () => 200_000)] });
    await box.start();
    dir = tempDir();
  });
  afterAll(async () => {
    await box.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('appends on 206 after a partial file', async () => {
    const file = path.join(dir, 'a.partial');
    fs.writeFileSync(file, Buffer.alloc(0));
    box.update('300000001', { dropAfterBytes: 70_000 });
    const first = await get('300000001', 'a.partial');
    expect(first).toMatchObject({ recorded: true, resumedFrom: 0 });
    expect(first.error).toMatch(/interrupted/);
    const mid = fs.statSync(file).size;
    expect(mid).toBeGreaterThan(0);
    expect(mid).toBeLessThan(200_000);
    const second = await get('300000001', 'a.partial');
    expect(second).toMatchObject({ recorded: true, resumedFrom: mid, restarted: false, actualSize: 200_000, announcedSize: 200_000 });
    expect(sha256File(file)).toBe(box.hash('300000001'));
  });

  it('starts over when the box answers a Range with 200', async () => {
    const file = path.join(dir, 'b.partial');
    fs.writeFileSync(file, Buffer.alloc(5000, 7));
    box.update('300000002', { ignoreRange: true });
    const res = await get('300000002', 'b.partial');
    expect(res).toMatchObject({ recorded: true, restarted: true, actualSize: 200_000 });
    expect(sha256File(file)).toBe(box.hash('300000002'));
  });

  it('treats 416 with a matching total as complete', async () => {
    const file = path.join(dir, 'c.partial');
    await get('300000003', 'c.partial');
    const again = await get('300000003', 'c.partial');
    expect(again).toMatchObject({ recorded: true, actualSize: 200_000, resumedFrom: 200_000 });
    expect(sha256File(file)).toBe(box.hash('300000003'));
  });

  it('reports a GET answering the recording marker as a warning, without writing', async () => {
    box.update('300000004', { recording: 'get-marker' });
    const res = await get('300000004', 'd.partial');
    expect(res).toMatchObject({ recorded: false, warning: 'currently recording' });
    expect(fs.existsSync(path.join(dir, 'd.partial'))).toBe(false);
    expect(await probeContentLength(fetch, box.mediaUrl('300000004'), new AbortController().signal)).toBe(200_000);
  });

  it('reports an HTTP error and a refused connection as not recorded', async () => {
    box.update('300000005', { failStatus: 500 });
    expect(await get('300000005', 'e.partial')).toMatchObject({ recorded: false, error: 'the box answered HTTP 500 for /web/300000005 — the next sync tries again' });
    const refused = await downloadToPartial({ url: 'http://127.0.0.1:1/web/x', partialPath: path.join(dir, 'f.partial'), get: mediaGet, clock: systemClock, signal: new AbortController().signal });
    expect(refused.recorded).toBe(false);
    expect(refused.error).toMatch(/^cannot download from the box at 127\.0\.0\.1:1: .+ — is it still on\? the next sync tries again$/);
  });
});

describe('download progress ticks', () => {
  it('reports progress every 250 ms of the clock while bytes flow', async () => {
    const box = createBoxSimulator({ shows: [{ title: 'S', items: [{ id: '300000101', title: 'S1 E1 - Slow - Mon 01 Jul', length: 2_000_000, bytesPerSecond: 200_000 }] }] });
    await box.start();
    const dir = tempDir();
    const clock = createManualClock();
    const ticks: number[] = [];
    const stop = new AbortController();
    try {
      const partialPath = path.join(dir, 'slow.partial');
      const running = downloadToPartial({ url: box.mediaUrl('300000101'), partialPath, get: createSocketMediaGet(), clock, signal: stop.signal, onTick: (bytes) => ticks.push(bytes) });
      for (let i = 0; i < 400 && !(fs.existsSync(partialPath) && fs.statSync(partialPath).size > 0); i++) await new Promise((r) => setTimeout(r, 25));
      const first = ticks.length; // one as the body starts
      expect(first).toBe(1);
      clock.advance(249);
      expect(ticks).toHaveLength(first);
      clock.advance(1);
      expect(ticks).toHaveLength(first + 1);
      clock.advance(250);
      expect(ticks).toHaveLength(first + 2);
      clock.advance(1000);
      expect(ticks).toHaveLength(first + 6);
      stop.abort(new Error('test over'));
      await running;
    } finally {
      await box.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('socket media client read buffer', () => {
  let box: BoxSimulator;
  let dir: string;
  beforeAll(async () => {
    box = createBoxSimulator({ shows: [sampleShow('S', 300000201, 6, () => 300_000)] });
    await box.start();
    dir = tempDir();
  });
  afterAll(async () => {
    await box.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // One new buffer per download was garbage that the download thread's small heap left
  // uncollected for hours: its memory grew by about a megabyte a download (the soak bench).
  it('reads download after download into the same buffer, and two at once into two, every file whole', async () => {
    const made: number[] = [];
    const get = createSocketMediaGet(undefined, (bytes) => {
      made.push(bytes);
      return Buffer.allocUnsafeSlow(bytes);
    });
    const download = (id: string) => downloadToPartial({ url: box.mediaUrl(id), partialPath: path.join(dir, `${id}.partial`), get, clock: systemClock, signal: new AbortController().signal });
    for (const id of ['300000201', '300000202', '300000203', '300000204']) {
      expect(await download(id)).toMatchObject({ recorded: true, actualSize: 300_000 });
      expect(sha256File(path.join(dir, `${id}.partial`))).toBe(box.hash(id));
    }
    expect(made).toHaveLength(1);
    const both = await Promise.all([download('300000205'), download('300000206')]);
    expect(both.map((r) => r.actualSize)).toEqual([300_000, 300_000]);
    for (const id of ['300000205', '300000206']) expect(sha256File(path.join(dir, `${id}.partial`))).toBe(box.hash(id));
    expect(made).toHaveLength(2);
  });
});

describe('socket media client framing', () => {
  it('falls back to the http client for a chunked body and delivers it whole', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.write(Buffer.alloc(1000, 1));
      res.end(Buffer.alloc(500, 2));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const res = await createSocketMediaGet()(`http://127.0.0.1:${port}/x`, { headers: {}, signal: new AbortController().signal });
    expect(res.header('transfer-encoding')).toBe('chunked');
    let n = 0;
    const end = await res.consume((_b, s, e) => void (n += e - s));
    expect(end).toEqual({ complete: true });
    expect(n).toBe(1500);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
});
