import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { createLogger, silentLogger } from '../../core/logger.js';
import { startBoxInChild } from '../box/simulator/box-child.js';
import { createBoxSimulator, type BoxSimulator } from '../box/simulator/box-simulator.js';
import { mediaHash } from '../box/simulator/media-bytes.js';
import { sha256File, tempDir } from '../testing/harness.js';
import { createThreadDownloader, startDownloadWorker, type ThreadDownloader } from './download-thread.js';

describe('downloads on the download thread', () => {
  let box: BoxSimulator;
  let dir: string;
  let downloader: ThreadDownloader;
  const slow = '300000002';
  beforeAll(async () => {
    box = createBoxSimulator({
      shows: [{ title: 'S', items: [{ id: '300000001', title: 'S1 E1 - One - Mon 01 Jul', length: 3_000_000 }, { id: slow, title: 'S1 E2 - Two - Mon 08 Jul', length: 2_000_000, bytesPerSecond: 400_000 }] }],
    });
    await box.start();
    dir = tempDir();
    downloader = createThreadDownloader(silentLogger);
  });
  afterAll(async () => {
    await downloader.close();
    await box.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const waitForSize = async (file: string, min: number) => {
    for (let i = 0; i < 400 && !(fs.existsSync(file) && fs.statSync(file).size >= min); i++) await new Promise((r) => setTimeout(r, 25));
  };

  it('writes the body byte for byte and reports progress here, from another thread', async () => {
    const partialPath = path.join(dir, 'one.partial');
    const ticks: number[] = [];
    const result = await downloader.download({ url: box.mediaUrl('300000001'), partialPath, signal: new AbortController().signal, onTick: (bytes) => ticks.push(bytes) });
    expect(result).toMatchObject({ recorded: true, actualSize: 3_000_000, announcedSize: 3_000_000, resumedFrom: 0 });
    expect(result.error).toBeUndefined();
    expect(sha256File(partialPath)).toBe(box.hash('300000001'));
    expect(ticks.length).toBeGreaterThan(0);
    expect(box.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  it('keeps writing while this thread is busy (the transfer does not run on this event loop)', async () => {
    // The box runs in a process of its own here, so it keeps sending while this thread is held.
    const id = '300000009';
    // 1.6 s at its pace: still running when this thread is held, a moment after the first 100 KB.
    const far = await startBoxInChild([{ title: 'S', items: [{ id, title: 'S1 E9 - Nine - Mon 01 Jul', length: 1_600_000, bytesPerSecond: 1_000_000 }] }]);
    try {
      const partialPath = path.join(dir, 'busy.partial');
      const running = downloader.download({ url: far.mediaUrl(id), partialPath, signal: new AbortController().signal });
      await waitForSize(partialPath, 100_000);
      const before = fs.statSync(partialPath).size;
      const until = Date.now() + 1000;
      while (Date.now() < until); // this event loop is held for a second
      expect(fs.statSync(partialPath).size).toBeGreaterThan(before + 200_000);
      expect(await running).toMatchObject({ recorded: true, actualSize: 1_600_000 });
      expect(sha256File(partialPath)).toBe(mediaHash(id, 1_600_000));
    } finally {
      await far.stop();
    }
  });

  it('stops on abort keeping the bytes, and the next download resumes them with a Range', async () => {
    const partialPath = path.join(dir, 'two.partial');
    const stop = new AbortController();
    const first = downloader.download({ url: box.mediaUrl(slow), partialPath, signal: stop.signal });
    await waitForSize(partialPath, 300_000);
    stop.abort(new Error('the service stopped'));
    const cut = await first;
    expect(cut.recorded).toBe(true);
    expect(cut.error).toMatch(/interrupted: the service stopped/);
    const kept = fs.statSync(partialPath).size;
    expect(kept).toBeGreaterThanOrEqual(300_000);
    expect(kept).toBeLessThan(2_000_000);

    box.update(slow, { bytesPerSecond: undefined });
    const rest = await downloader.download({ url: box.mediaUrl(slow), partialPath, signal: new AbortController().signal });
    expect(rest).toMatchObject({ recorded: true, resumedFrom: kept, actualSize: 2_000_000 });
    expect(sha256File(partialPath)).toBe(box.hash(slow));
  });

  it('ends a download whose thread stops as interrupted with its bytes kept, and starts a new thread for the next', async () => {
    box.update(slow, { bytesPerSecond: 400_000 });
    const partialPath = path.join(dir, 'three.partial');
    const running = downloader.download({ url: box.mediaUrl(slow), partialPath, signal: new AbortController().signal });
    await waitForSize(partialPath, 300_000);
    await downloader.close();
    const cut = await running;
    expect(cut).toMatchObject({ recorded: true });
    expect(cut.error).toMatch(/download thread stopped.*next sync resumes/);
    expect(cut.actualSize).toBe(fs.statSync(partialPath).size);

    box.update(slow, { bytesPerSecond: undefined });
    const rest = await downloader.download({ url: box.mediaUrl(slow), partialPath, signal: new AbortController().signal });
    expect(rest).toMatchObject({ recorded: true, actualSize: 2_000_000 });
    expect(sha256File(partialPath)).toBe(box.hash(slow));
  });

  it("keeps the thread's memory bounded over many downloads (its garbage is collected, not left to pile up)", async () => {
    // Each download leaves ~125 KB of garbage in the thread; with V8's default heap limits the thread
    // never collected it (+4 MB an hour in the two-hour soak). Its committed heap must level off.
    let thread: Worker | null = null;
    const own = createThreadDownloader(silentLogger, { start: () => (thread = startDownloadWorker()) });
    try {
      const partialPath = path.join(dir, 'many.partial');
      const heapMb = async () => (await thread!.getHeapStatistics()).total_heap_size / 1048576;
      const sizes: number[] = [];
      for (let i = 1; i <= 100; i++) {
        expect(await own.download({ url: box.mediaUrl('300000001'), partialPath, signal: new AbortController().signal })).toMatchObject({ recorded: true, actualSize: 3_000_000 });
        fs.rmSync(partialPath);
        if (i % 10 === 0) sizes.push(await heapMb());
      }
      // From the tenth download on (the thread warmed up). With V8's default limits: +20 MB by the 100th.
      expect(Math.max(...sizes.slice(1)) - sizes[0]!).toBeLessThan(4);
    } finally {
      await own.close();
    }
  }, 120_000);

  it('ends the thread five minutes after its last download (never during one), and the next download starts a new thread', async () => {
    const clock = createManualClock();
    const threads: Worker[] = [];
    const own = createThreadDownloader(silentLogger, { clock, start: () => threads[threads.push(startDownloadWorker()) - 1]! });
    try {
      const partialPath = path.join(dir, 'idle.partial');
      const get = (id: string) => own.download({ url: box.mediaUrl(id), partialPath, signal: new AbortController().signal });
      expect(await get('300000001')).toMatchObject({ recorded: true, actualSize: 3_000_000 });
      fs.rmSync(partialPath);
      // A download that runs past the idle time is not cut short.
      box.update(slow, { bytesPerSecond: 1_000_000 });
      const running = get(slow);
      await waitForSize(partialPath, 100_000);
      clock.advance(10 * 60_000);
      const slowResult = await running;
      expect(slowResult).toMatchObject({ recorded: true, actualSize: 2_000_000 });
      expect(slowResult.error).toBeUndefined();
      fs.rmSync(partialPath);
      expect(threads).toHaveLength(1);

      const exited = new Promise((resolve) => threads[0]!.once('exit', resolve));
      clock.advance(5 * 60_000);
      await exited;
      box.update(slow, { bytesPerSecond: undefined });
      expect(await get('300000001')).toMatchObject({ recorded: true, actualSize: 3_000_000 });
      expect(sha256File(partialPath)).toBe(box.hash('300000001'));
      expect(threads).toHaveLength(2);
    } finally {
      await own.close();
    }
  }, 60_000);

  it('downloads on this thread, with a warning, when the download thread cannot start', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', format: 'json', destination: new Writable({ write: (c: Buffer, _e, done) => (lines.push(c.toString()), done()) }) });
    const broken = createThreadDownloader(logger, { start: () => new Worker('throw new Error("cannot load download-worker.js")', { eval: true }) });
    try {
      const partialPath = path.join(dir, 'fallback.partial');
      const first = await broken.download({ url: box.mediaUrl('300000001'), partialPath, signal: new AbortController().signal });
      expect(first).toMatchObject({ recorded: true, actualSize: 3_000_000 });
      expect(sha256File(partialPath)).toBe(box.hash('300000001'));
      expect(lines.join('')).toMatch(/download thread cannot start.*main thread/);
      fs.rmSync(partialPath);
      // Later downloads go straight to this thread.
      expect(await broken.download({ url: box.mediaUrl('300000001'), partialPath, signal: new AbortController().signal })).toMatchObject({ recorded: true, actualSize: 3_000_000 });
    } finally {
      await broken.close();
    }
  });
});
