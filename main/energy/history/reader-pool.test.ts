import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { DurableStore } from './durable-store.js';
import { EXPORT_PAGE_ROWS } from './export.js';
import { makeSample, T0 } from './fixtures.js';
import { HistoryReaderPool } from './reader-pool.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('full exports shared out to two reader workers', () => {
  let dir: string;
  let pool: HistoryReaderPool;
  const samples: HistorySample[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-reader-pool-'));
    const file = path.join(dir, 'history.db');
    const store = new DurableStore(file);
    // Five pages and a bit, one sample a second with odd gaps, so pages end on arbitrary times.
    for (let i = 0; i < EXPORT_PAGE_ROWS * 5 + 123; i++) samples.push(makeSample(T0 + i * 1000 + (i % 3) * 7));
    store.insertMany(samples);
    store.close();
    pool = new HistoryReaderPool(file, silentLogger, { helperIdleMs: 300 });
  }, 60_000);
  afterAll(async () => {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const csvRows = (csv: string) => {
    const lines = csv.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.shift()).toBe(['time', 't', ...SAMPLE_FIELDS].join(','));
    return lines.map((l) => {
      const cells = l.split(',');
      expect(cells[0]).toBe(new Date(Number(cells[1])).toISOString());
      const s = { t: Number(cells[1]) } as HistorySample;
      SAMPLE_FIELDS.forEach((f, j) => (s[f] = cells[j + 2] === '' ? null : Number(cells[j + 2])));
      return s;
    });
  };

  /** An export that has sent its first chunk and is then held (not read further). */
  const heldExport = async () => {
    const stream = pool.exportStream('json', undefined, T0);
    await new Promise<void>((resolve) => stream.once('readable', () => resolve()));
    return stream;
  };

  it('gives every sample once, in order, while the helper writes every other page', async () => {
    // An export in progress starts the helper; once it has loaded, the pages alternate between workers.
    const held = await heldExport();
    await vi.waitFor(() => expect(pool.exportHelper()).toBe('ready'), { timeout: 30_000, interval: 50 });
    held.destroy();
    for (let round = 0; round < 2; round++) {
      expect(JSON.parse(await text(pool.exportStream('json', undefined, T0)))).toEqual(samples);
      expect(csvRows(await text(pool.exportStream('csv', undefined, T0)))).toEqual(samples);
    }
    // Retention: only what is at or after the cutoff.
    const cutoff = samples[EXPORT_PAGE_ROWS + 5]!.t;
    expect(JSON.parse(await text(pool.exportStream('json', undefined, cutoff)))).toEqual(samples.filter((s) => s.t >= cutoff));
    expect(await text(pool.exportStream('json', undefined, T0 + 365 * 86_400_000))).toBe('[]');
    expect(await text(pool.exportStream('csv', undefined, T0 + 365 * 86_400_000))).toBe(['time', 't', ...SAMPLE_FIELDS].join(',') + '\n');
  }, 60_000);

  it('gives each worker its next page only once it has finished the last: both write, neither waits behind the other', async () => {
    // A page handed to a busy worker waits behind its current one while the other worker may have
    // nothing to do (the pages are sent in order): each worker holds at most one page at a time.
    const held = await heldExport();
    await vi.waitFor(() => expect(pool.exportHelper()).toBe('ready'), { timeout: 30_000, interval: 50 });
    // Page requests each worker has not finished yet (by id: the held export's late replies do not count).
    const inHand = new Map<Worker, Set<number>>();
    const most = new Map<Worker, number>();
    const postMessage = Worker.prototype.postMessage;
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (this: Worker, msg: unknown, transfer?: Parameters<Worker['postMessage']>[1]) {
      const req = msg as { op?: string; id?: number };
      if (req.op === 'export-page') {
        let ids = inHand.get(this);
        if (!ids) {
          inHand.set(this, (ids = new Set()));
          // Prepended: a reply is counted before the pool sees it (and hands out the next page).
          this.prependListener('message', (r: { id: number; done?: boolean }) => r.done && ids!.delete(r.id));
        }
        ids.add(req.id!);
        most.set(this, Math.max(most.get(this) ?? 0, ids.size));
      }
      postMessage.call(this, msg, transfer);
    });
    try {
      held.destroy();
      expect(JSON.parse(await text(pool.exportStream('json', undefined, T0)))).toEqual(samples);
    } finally {
      post.mockRestore();
    }
    // Both workers wrote pages, one at a time each.
    expect([...most.values()]).toEqual([1, 1]);
  }, 60_000);

  it('ends the helper once no export ran for a while; an abandoned export counts as ended', async () => {
    await vi.waitFor(() => expect(pool.exportHelper()).toBe('off'), { timeout: 5_000, interval: 50 });
    // A consumer that goes away after the first chunk: the helper starts, then still ends.
    const held = await heldExport();
    await vi.waitFor(() => expect(pool.exportHelper()).toBe('ready'), { timeout: 30_000, interval: 50 });
    held.destroy();
    await vi.waitFor(() => expect(pool.exportHelper()).toBe('off'), { timeout: 5_000, interval: 50 });
    // And the next export is whole.
    expect(JSON.parse(await text(pool.exportStream('json', undefined, T0)))).toEqual(samples);
  }, 60_000);

  it('sends intact bytes to a slow client over a real socket while chunk memory is reused', async () => {
    // The HTTP thread lends chunks back to the workers once the socket has them; a client that
    // reads slowly keeps the socket's queue full, so a chunk reused too early would show here.
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      void pipeline(pool.exportStream('json', undefined, T0), res).catch(() => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (let round = 0; round < 2; round++) {
        const body = await new Promise<string>((resolve, reject) => {
          http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
            const parts: Buffer[] = [];
            let got = 0;
            res.on('data', (c: Buffer) => {
              parts.push(c);
              got += c.length;
              // Every ~512 kB the client stops reading for a moment.
              if (got > 512 * 1024) {
                got = 0;
                res.pause();
                setTimeout(() => res.resume(), 15);
              }
            });
            res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
            res.on('error', reject);
          });
        });
        expect(JSON.parse(body)).toEqual(samples);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});

describe('the reader worker when nothing asks it anything', () => {
  let dir: string;
  let pool: HistoryReaderPool;
  const samples: HistorySample[] = [];
  // The idle time passes only when the test says so.
  const clock = createManualClock();
  const IDLE_MS = 300;
  /** Lets the idle time pass (again) until the reader is off: it ends once its last reply is in. */
  const idleOut = () => vi.waitFor(() => {
    clock.advance(IDLE_MS);
    expect(pool.reader()).toBe('off');
  }, { timeout: 5_000, interval: 20 });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-reader-idle-'));
    const file = path.join(dir, 'history.db');
    const store = new DurableStore(file);
    for (let i = 0; i < 6 * 3600; i++) samples.push(makeSample(T0 + i * 1000));
    store.insertMany(samples);
    store.close();
    pool = new HistoryReaderPool(file, silentLogger, { readerIdleMs: IDLE_MS, clock });
  }, 60_000);
  afterAll(async () => {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ends after its idle time and starts again for the next read, with the same answer', async () => {
    expect(pool.reader()).toBe('off');
    const first = await pool.query({ every: 60, since: T0 }, T0, false);
    expect(pool.reader()).not.toBe('off');
    clock.advance(IDLE_MS - 1);
    expect(pool.reader()).not.toBe('off');
    clock.advance(1);
    expect(pool.reader()).toBe('off');
    const again = await pool.query({ every: 60, since: T0 }, T0, false);
    expect(again.body.toString()).toBe(first.body.toString());
    expect(JSON.parse(first.body.toString())).toHaveLength(360);
  }, 60_000);

  it('stays while a thinned export is open, however slowly it is read, and ends after it', async () => {
    await idleOut();
    const stream = pool.exportStream('csv', 10, T0);
    const chunks: Buffer[] = [];
    const firstChunk = await new Promise<Buffer>((resolve) => stream.once('data', (c: Buffer) => resolve(Buffer.from(c))));
    chunks.push(firstChunk);
    stream.pause();
    // Once the page fetched ahead is in (nothing asked, nothing pending but the open cursor), it is
    // held well past the idle time: the cursor in the worker must survive.
    await vi.waitFor(() => expect(pool.requestsInFlight()).toBe(0), { timeout: 5_000, interval: 10 });
    clock.advance(10 * IDLE_MS);
    expect(pool.reader()).toBe('ready');
    for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(1 + samples.length / 10);
    await idleOut();
  }, 60_000);
});
