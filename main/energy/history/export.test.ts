import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSameBuckets, makeSample, openTestHistory, referenceBuckets, storeSamples, T0, type TestHistory } from '../testing/history/fixtures.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

/** A minimal CSV reader for the export (no quoted cells: the export writes numbers and ISO times only). */
function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  return { header: lines[0]!.split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

describe('GET /api/history/export', () => {
  let th: TestHistory;
  const samples: HistorySample[] = [];
  beforeAll(async () => {
    // 30,000 samples: more than the memory window and several keyset pages.
    th = await openTestHistory();
    // Stored as an import would (the export reads only the table, never the memory window).
    for (let i = 1; i <= 30_000; i++) samples.push(makeSample(T0 + i * 2000));
    storeSamples(th.history, samples);
    th.clock.set(samples.at(-1)!.t);
  }, 60_000);
  afterAll(() => th.close());

  it('streams CSV by default: ISO time, epoch ms, then the sample fields; parses back to the same values', async () => {
    const res = await th.get('/api/history/export');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="energy-history-2026-01-01.csv"');
    const { header, rows } = parseCsv(res.text);
    expect(header).toEqual(['time', 't', ...SAMPLE_FIELDS]);
    expect(rows).toHaveLength(samples.length);
    expect(rows.map((cells) => cells[0])).toEqual(samples.map((s) => new Date(s.t).toISOString()));
    const back = rows.map((cells) => {
      const row = { t: Number(cells[1]) } as HistorySample;
      SAMPLE_FIELDS.forEach((f, j) => (row[f] = cells[j + 2] === '' ? null : Number(cells[j + 2])));
      return row;
    });
    expect(back).toEqual(samples);
  });

  it('streams JSON as a bare array equal to the appended samples', async () => {
    const res = await th.get('/api/history/export?format=json');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="energy-history-2026-01-01.json"');
    expect(res.body).toEqual(samples);
  });

  it('thins with every, in JSON and CSV alike, matching the reference buckets', async () => {
    const json = (await th.get('/api/history/export?format=json&every=300')).body;
    expectSameBuckets(json, referenceBuckets(samples, 300_000));
    const thinned = await th.get('/api/history/export?format=csv&every=300');
    // Not the every-sample export's name: both can sit in one downloads folder.
    expect(thinned.headers['content-disposition']).toBe('attachment; filename="energy-history-2026-01-01-every-300s.csv"');
    const { header, rows } = parseCsv(thinned.text);
    expect(header.slice(0, 2)).toEqual(['time', 't']);
    expect(header.slice(1)).toEqual(Object.keys(json[0]));
    const fromCsv = rows.map((cells) => Object.fromEntries(header.slice(1).map((k, j) => [k, cells[j + 1] === '' ? null : Number(cells[j + 1])])));
    expect(fromCsv).toEqual(json);
  });

  it('hands the text over from the reader thread in pieces of tens of KB, however long the series (memory stays flat)', async () => {
    for (const format of ['csv', 'json'] as const) {
      const sizes: number[] = [];
      for await (const chunk of th.history.exportOffThread(format)) sizes.push((chunk as Buffer).length);
      expect(sizes.length, format).toBeGreaterThan(30);
      // Under V8's large-object size (128 KiB): each piece dies young in both threads.
      expect(Math.max(...sizes), format).toBeLessThan(128 << 10);
    }
  });

  it('exports only what is inside retention and an empty series as a header or []', async () => {
    const empty = await openTestHistory();
    try {
      expect((await empty.get('/api/history/export')).text).toBe(`time,t,${SAMPLE_FIELDS.join(',')}\n`);
      expect((await empty.get('/api/history/export?format=json')).body).toEqual([]);
      for (let i = 1; i <= 100; i++) empty.appendAt(T0 + i * 60_000);
      empty.retention.ms = 30 * 60_000;
      empty.clock.advance(1);
      const rows = (await empty.get('/api/history/export?format=json')).body;
      expect(rows[0].t).toBe(T0 + 71 * 60_000);
      expect(rows).toHaveLength(30);
    } finally {
      await empty.close();
    }
  });
});
