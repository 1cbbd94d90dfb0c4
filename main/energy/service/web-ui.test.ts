import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../core/http.js';
import { silentLogger } from '../../core/logger.js';
import { registerWebUi } from './web-ui.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function appWith(root: string) {
  const app = createHttpServer({ logger: silentLogger });
  await registerWebUi(app, root);
  return app;
}

describe('web UI serving', () => {
  it('tells the user to build the UI when dist/renderer is missing', async () => {
    const app = await appWith(path.join(os.tmpdir(), 'no-such-ui-build'));
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build:ui');
    await app.close();
  });

  it('answers index.html for each page path, assets with a long cache, and keeps JSON 404s', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-build-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(root, 'assets', 'app-abc.js'), 'console.log(1)');
    const app = await appWith(root);
    for (const url of ['/', '/trends', '/settings', '/setup']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('id="root"');
    }
    const asset = await app.inject({ url: '/assets/app-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(String(asset.headers['cache-control'])).toContain('immutable');
    for (const url of ['/api/nope', '/assets/missing.js', '/assets/../index.html', '/elsewhere']) {
      const res = await app.inject({ url });
      if (url === '/assets/../index.html') {
        expect(res.statusCode).not.toBe(500);
        continue;
      }
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    await app.close();
  });
});
