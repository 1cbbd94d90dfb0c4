import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestHistory, T0, type TestHistory } from '../testing/history/fixtures.js';

describe('history routes reject bad input with a 400 naming the parameter', () => {
  let th: TestHistory;
  beforeAll(async () => {
    th = await openTestHistory();
    for (let i = 1; i <= 10; i++) th.appendAt(T0 + i * 1000);
  });
  afterAll(() => th.close());

  const cases: Array<[string, string]> = [
    ['/api/history?limit=0', 'limit'],
    ['/api/history?limit=20001', 'limit'],
    ['/api/history?limit=ten', 'limit'],
    ['/api/history?limit=1&limit=2', 'limit'],
    [`/api/history?since=${T0 + 5000}&until=${T0 + 4000}`, 'since'],
    ['/api/history?since=yesterday', 'since'],
    ['/api/history?until=2026-13-45T00:00:00Z', 'until'],
    ['/api/history?every=0', 'every'],
    ['/api/history?every=1.5', 'every'],
    ['/api/history?order=up', 'order'],
    ['/api/history?pretty=yes', 'pretty'],
    ['/api/history?every=abc&_=1700000000', 'every'],
    ['/api/history/stats?pretty=no&_=1', 'pretty'],
    ['/api/history/export?format=xml', 'format'],
    ['/api/history/export?every=0', 'every'],
  ];
  for (const [url, field] of cases) {
    it(`${url} -> 400 ${field}`, async () => {
      const res = await th.get(url);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid', field });
      expect(res.body.error.message).toContain(field);
    });
  }

  it('ignores unknown parameter names such as cache busters, on every history route', async () => {
    for (const url of ['/api/history', '/api/history?limit=3', '/api/history/stats', '/api/history/export?format=json', '/api/history?every=5']) {
      const plain = await th.get(url);
      const busted = await th.get(`${url}${url.includes('?') ? '&' : '?'}_=1700000000&utm_source=x`);
      expect(busted.status, url).toBe(200);
      expect(busted.text, url).toBe(plain.text);
    }
  });

  it('accepts the limits themselves', async () => {
    expect((await th.get('/api/history?limit=1')).body).toHaveLength(1);
    expect((await th.get('/api/history?limit=20000')).body).toHaveLength(10);
    expect((await th.get(`/api/history?since=${T0 + 5000}&until=${T0 + 5000}`)).body).toHaveLength(1);
    expect((await th.get('/api/history?since=2026-01-01T00:00:09Z')).body).toHaveLength(2);
  });
});
