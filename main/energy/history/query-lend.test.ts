import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestHistory, T0, type TestHistory } from './fixtures.js';

/**
 * A downsampled answer is written by the reader worker into memory the HTTP thread gives back once
 * the answer has been sent (reader-pool.ts `query`). Memory given back too early would carry the
 * next answer while the first is still on its way.
 */
describe('query answers written into memory lent back by the HTTP thread', () => {
  let th: TestHistory;
  const HOURS = 6;
  beforeAll(async () => {
    th = await openTestHistory();
    for (let i = 1; i <= HOURS * 3600; i++) th.appendAt(T0 + i * 1000);
  }, 60_000);
  afterAll(() => th.close());

  it('an answer still held is never written over; one given back carries the next answer, without the old bytes', async () => {
    const query = (every: number) => th.history.queryJson({ every, since: T0 }, false);
    const big = await query(1);
    const bigText = big.body.toString();
    expect(JSON.parse(bigText).length).toBeGreaterThan(10_000); // ~6 MB
    // Asked while the first is held: it must go elsewhere.
    const small = await query(600);
    expect(big.body.toString()).toBe(bigText);
    const smallText = small.body.toString();
    expect(JSON.parse(smallText)).toHaveLength(HOURS * 6 + 1); // 10-minute buckets, the last one partial
    big.release();
    expect(big.body.length).toBe(0); // handed back to the worker
    small.release();
    small.release(); // twice is harmless
    // Written into the ~6 MB the first answer left: the same text, not a byte more.
    expect((await query(600)).body.toString()).toBe(smallText);
    expect((await query(1)).body.toString()).toBe(bigText);
  }, 60_000);

  it('over a real socket: a client still reading a large answer gets it whole while other requests are answered', async () => {
    const port = await th.app.listen({ port: 0, host: '127.0.0.1' }).then((url) => Number(new URL(url).port));
    const get = (path: string, slow = false) =>
      new Promise<string>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path }, (res) => {
          const parts: Buffer[] = [];
          // A slow client reads nothing for a second, then takes its time.
          if (slow) {
            res.pause();
            setTimeout(() => res.resume(), 1000);
          }
          res.on('data', (c: Buffer) => {
            parts.push(c);
            if (slow) {
              res.pause();
              setTimeout(() => res.resume(), 2);
            }
          });
          res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
          res.on('error', reject);
        });
      });
    const answer = async (since: number) => (await th.history.queryJson({ every: 1, since }, false)).body.toString();
    // Five and a half hours at every=1 come in 1 s buckets (~11 MB), six hours in 2 s ones (~6 MB).
    const large = await answer(T0 + 1_800_000);
    const other = await answer(T0);
    // The large answer is more than the socket takes from a client that does not read, so its tail
    // waits in this process; meanwhile other answers are written, each into memory given back by
    // the one before it, which fits in what the large one would give back.
    expect(await get(`/api/history?every=1&since=${T0 + 1_800_000}`)).toBe(large); // leaves one buffer to lend
    const slow = get(`/api/history?every=1&since=${T0 + 1_800_000}`, true);
    const slowOther = get(`/api/history?every=1&since=${T0}`, true); // two answers in flight at once
    for (let i = 0; i < 3; i++) expect(await get(`/api/history?every=1&since=${T0}`)).toBe(other);
    expect(await slow).toBe(large);
    expect(await slowOther).toBe(other);
  }, 60_000);
});
