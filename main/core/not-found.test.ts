import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './http.js';
import { silentLogger } from './logger.js';

/** An unknown path: a browser navigation gets a page a person can read, everything else the JSON 404. */
describe('not found', () => {
  const app = createHttpServer({ logger: silentLogger, appName: 'Recording sync' });
  app.get('/api/there', async () => ({ ok: true }));
  afterAll(() => app.close());
  const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

  it('answers a browser navigation with an HTML page that names the path and links home', async () => {
    const res = await app.inject({ url: '/no/such/page?x=1', headers: BROWSER });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<h1>Page not found</h1>');
    expect(res.body).toContain('<code>/no/such/page</code>');
    expect(res.body).toContain('href="/"');
    expect(res.body).toContain('Recording sync');
    expect(res.body).not.toContain('<script');
  });

  it('escapes the path it shows', async () => {
    const res = await app.inject({ url: '/%3Cimg%20src=x%20onerror=alert(1)%3E', headers: BROWSER });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/<img/i);
  });

  it('keeps JSON for /api/*, for assets, for non-GET and for clients that do not ask for HTML', async () => {
    const cases = [
      { url: '/api/nope', headers: BROWSER },
      { url: '/api', headers: BROWSER },
      { url: '/assets/missing.js', headers: BROWSER },
      { url: '/elsewhere', headers: { accept: 'application/json' } },
      { url: '/elsewhere', headers: {} },
      { url: '/elsewhere', headers: BROWSER, method: 'POST' as const },
    ];
    for (const c of cases) {
      const res = await app.inject({ url: c.url, headers: c.headers, method: c.method ?? 'GET' });
      expect(res.statusCode, c.url).toBe(404);
      expect(res.headers['content-type'], c.url).toContain('application/json');
      expect(res.json(), c.url).toMatchObject({ error: { code: 'not_found' } });
      expect(res.body, c.url).not.toContain('at ');
    }
  });
});
