import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createFakeMediaServer, type FakeMediaServer } from './fake-media-server.js';
import { listSections, MAX_SECTIONS_BYTES } from './plex-client.js';
import { MAX_PREFS_BYTES, readTokenFromPrefs } from './prefs-token.js';

const TOKEN = 'xYz-Plex_Token-0123456789';

describe('media server: GDM discovery on loopback, sections, token detection', () => {
  let plex: FakeMediaServer;
  let h: Harness;
  let prefs: string;
  beforeAll(async () => {
    plex = createFakeMediaServer({ token: TOKEN, name: 'Lounge Plex' });
    await plex.start();
    h = await startHarness({
      box: { shows: [sampleShow('Bluey', 720000001, 1, () => 3000)] },
      config: { gdm: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: plex.gdmPort, windowMs: 300 } },
    });
    prefs = path.join(h.dir, 'Preferences.xml');
  });
  afterAll(async () => {
    await h.cleanup();
    await plex.stop();
  });

  it('discovers the one server by GDM and saves its URL; without a token it says so', async () => {
    const res = await h.api.post('/api/discover-media-server');
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([{ name: 'Lounge Plex', url: plex.url, resource_identifier: 'fake-media-server-0001', version: '1.40.0.0000' }]);
    expect(res.body.message).toContain('saved as the media server URL');
    expect(res.body.message).toContain('set the token');
    expect(h.service.settings.get().media_server_url).toBe(plex.url);
  });

  it('detects the token from the preferences file (setting path), stores it, never echoes it', async () => {
    const missing = await h.api.post('/api/media-server/detect-token');
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toContain('/media-server-preferences.xml');

    fs.writeFileSync(prefs, `<?xml version="1.0" encoding="utf-8"?>\n<Preferences MachineIdentifier="abc" PlexOnlineToken="${TOKEN}" PlexOnlineUsername="me"/>\n`);
    expect((await h.api.patch('/api/settings', { media_server_prefs_path: prefs })).status).toBe(200);
    const res = await h.api.post('/api/media-server/detect-token');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ detected: true, path: prefs, token: '••••••••', verified: true });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    expect(h.service.settings.get().media_server_token).toBe(TOKEN);
    expect((await h.api.get('/api/settings')).body.settings.media_server_token).toBe('••••••••');
  });

  it('with URL and token, discovery lists the libraries and saves the one TV section', async () => {
    const res = await h.api.post('/api/discover-media-server');
    expect(res.body.sections).toEqual([
      { id: '1', title: 'Movies', type: 'movie' },
      { id: '2', title: 'TV Shows', type: 'show' },
    ]);
    expect(h.service.settings.get().media_server_section_id).toBe('2');
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
  });

  it('lists the sections of a chosen server with the token given for it; a wrong token is a clear 502, a bad URL a 400 naming url', async () => {
    const ok = await h.api.post('/api/discover-media-server', { url: plex.url, token: TOKEN });
    expect(ok.body.sections).toHaveLength(2);
    // A server named by the caller never gets the stored token, even the configured one's.
    const noToken = await h.api.post('/api/discover-media-server', { url: plex.url });
    expect(noToken.status).toBe(502);
    expect(noToken.body.error.code).toBe('media_server_unauthorized');
    const refused = await h.api.post('/api/discover-media-server', { url: plex.url, token: 'wrong-token-123' });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('media_server_unauthorized');
    expect(refused.body.error.message).not.toContain('wrong-token-123');
    const bad = await h.api.post('/api/discover-media-server', { url: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('url');
  });

  it('refreshes the section after a sync that downloaded something', async () => {
    await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Bluey' });
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    const run = await h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok' });
    expect(plex.refreshes).toEqual(['2']);
  });
});

describe('media server answers are hostile input', () => {
  it('refuses an oversized sections answer', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_SECTIONS_BYTES) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expect(listSections(fetch, { url, token: 't' })).rejects.toThrow(/larger than/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('reads the token only from the root element, refuses huge files and odd tokens', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'prefs-'));
    try {
      const f = path.join(dir, 'Preferences.xml');
      fs.writeFileSync(f, `<Preferences PlexOnlineToken='${TOKEN}'></Preferences>`);
      expect(readTokenFromPrefs(f)).toBe(TOKEN);
      fs.writeFileSync(f, '<Preferences Other="1"><Child PlexOnlineToken="abcdefgh1234"/></Preferences>');
      expect(() => readTokenFromPrefs(f)).toThrow(/no token/);
      fs.writeFileSync(f, '<Preferences PlexOnlineToken="a b;rm -rf"/>');
      expect(() => readTokenFromPrefs(f)).toThrow(/unexpected format/);
      fs.writeFileSync(f, `<Preferences PlexOnlineToken="${TOKEN}" ${'x'.repeat(MAX_PREFS_BYTES)}/>`);
      expect(() => readTokenFromPrefs(f)).toThrow(/larger than/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
