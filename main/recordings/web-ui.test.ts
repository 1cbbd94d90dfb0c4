import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, tempDir, type Harness } from './testing/harness.js';

describe('recordings pages served by the recording service', () => {
  let h: Harness;
  const ui = tempDir('recordings-ui-');
  beforeAll(async () => {
    fs.mkdirSync(path.join(ui, 'recordings'), { recursive: true });
    fs.mkdirSync(path.join(ui, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(ui, 'recordings', 'index.html'), '<!doctype html><title>Recordings</title><script type="module" src="/assets/rec-abc123.js"></script>');
    fs.writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Energy</title>');
    fs.writeFileSync(path.join(ui, 'assets', 'rec-abc123.js'), 'console.log(1)');
    h = await startHarness({ box: { shows: [] }, config: { staticDir: ui } });
  });
  afterAll(async () => {
    await h.cleanup();
    fs.rmSync(ui, { recursive: true, force: true });
  });

  it('answers the recordings index.html on every page path, under the strict CSP', async () => {
    for (const page of ['/', '/recordings', '/shows', '/history', '/settings', '/setup']) {
      const res = await fetch(`${h.service.url}${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('<title>Recordings</title>');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-eval'");
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    }
  });

  it('serves hashed assets with a long cache and keeps JSON 404s for unknown paths', async () => {
    const asset = await fetch(`${h.service.url}/assets/rec-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const missing = await fetch(`${h.service.url}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await fetch(`${h.service.url}/assets/../recordings/index.html`)).status).not.toBe(200);
  });

  it('says how to build the pages when the build is missing', async () => {
    fs.rmSync(path.join(ui, 'recordings', 'index.html'));
    const res = await fetch(`${h.service.url}/shows`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:ui');
  });
});
