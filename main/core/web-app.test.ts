import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fastifyStatic from '@fastify/static';
import { createHttpServer } from './http.js';
import { silentLogger } from './logger.js';
import { repoRoot } from './paths.js';
import { registerWebApp } from './web-app.js';

const PUBLIC = path.join(repoRoot, 'renderer', 'public');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function appOver(root: string, manifest: string) {
  const app = createHttpServer({ logger: silentLogger });
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, index: false });
  registerWebApp(app, root, manifest);
  return app;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const b = fs.readFileSync(file);
  expect(b.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('installable web apps', () => {
  for (const [file, name, start] of [
    ['energy.webmanifest', 'Energy bridge', '/wall'],
    ['recordings.webmanifest', 'Recording sync', '/'],
  ] as const) {
    it(`${file} names the app, starts on ${start} and lists icons that exist at their stated sizes`, () => {
      const m = JSON.parse(fs.readFileSync(path.join(PUBLIC, file), 'utf8')) as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string; type: string }> };
      expect(m.name).toBe(name);
      expect(m.start_url).toBe(start);
      expect(m.display).toBe('standalone');
      // Chromium installs an app with at least a 192 px and a 512 px icon.
      expect(m.icons.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
      for (const icon of m.icons) {
        const [w, h] = pngSize(path.join(PUBLIC, icon.src));
        expect(`${w}x${h}`).toBe(icon.sizes);
        expect(icon.type).toBe('image/png');
      }
    });
  }

  it('serves the manifest, an uncached service worker and the icons; odd icon names are a JSON 404', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'web-app-'));
    dirs.push(root);
    fs.cpSync(PUBLIC, root, { recursive: true });
    const app = await appOver(root, 'energy.webmanifest');
    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    expect(manifest.json()).toMatchObject({ name: 'Energy bridge' });
    const sw = await app.inject({ url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['content-type']).toContain('javascript');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.body).toContain("addEventListener('fetch'");
    const icon = await app.inject({ url: '/icons/energy-192.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    for (const url of ['/icons/..%2Fsw.js', '/icons/nope.png', '/icons/ENERGY.PNG']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    await app.close();
  });

  it('a recordings build answers its own manifest at the same path', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'web-app-'));
    dirs.push(root);
    fs.cpSync(PUBLIC, root, { recursive: true });
    const app = await appOver(root, 'recordings.webmanifest');
    expect((await app.inject({ url: '/manifest.webmanifest' })).json()).toMatchObject({ name: 'Recording sync' });
    await app.close();
  });
});
