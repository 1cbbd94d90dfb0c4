import dgram from 'node:dgram';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEmbyReply, searchEmbyServers } from './emby-discovery.js';
import { listLibraries, systemInfo } from './jellyfin-client.js';
import { foldersToUpdate } from './new-folders.js';
import { MAX_SECTIONS_BYTES } from './media-server-http.js';

/** Answers from a Jellyfin or Emby server, and discovery replies, are hostile input. */
let server: http.Server | null = null;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('Jellyfin and Emby answers', () => {
  it('refuses a library list larger than the bound, while it streams', async () => {
    const url = await serve((_req, res) => {
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
    await expect(listLibraries(fetch, { kind: 'jellyfin', url, token: 'k' })).rejects.toThrow(/larger than/);
  });

  it('stops waiting for a server that never finishes its answer when the service stops', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
    });
    await expect(systemInfo(fetch, { kind: 'emby', url, token: 'k' }, AbortSignal.timeout(300))).rejects.toThrow(/system information/);
  });

  it('skips library entries in another shape and cleans their text; a non-JSON answer is a plain error', async () => {
    let answer = '';
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
    answer = JSON.stringify({ Items: [{ Name: 'TV\u0007 <b>Shows</b>', CollectionType: 'tvshows', ItemId: 'abc-123', Locations: ['/media/tv', 42] }, { Name: 'no id' }, { Name: 'bad id', ItemId: '../x' }, 'junk'] });
    const libs = await listLibraries(fetch, { kind: 'emby', url, token: 'k' });
    expect(libs).toHaveLength(1);
    expect(libs[0]).toMatchObject({ id: 'abc-123', type: 'tvshows', locations: ['/media/tv'] });
    expect(libs[0]!.title).not.toContain('\u0007');
    answer = '<html>login</html>';
    await expect(listLibraries(fetch, { kind: 'jellyfin', url, token: 'k' })).rejects.toThrow(/not JSON/);
    answer = JSON.stringify({ Hello: 'world' });
    await expect(systemInfo(fetch, { kind: 'jellyfin', url, token: 'k' })).rejects.toThrow(/not as Jellyfin/);
  });

  it('never sends an API key that could break out of its header', async () => {
    let asked = 0;
    const url = await serve((_req, res) => {
      asked++;
      res.writeHead(200).end('{}');
    });
    await expect(systemInfo(fetch, { kind: 'jellyfin', url, token: 'abc"\r\nX-Evil: 1' })).rejects.toThrow(/characters an API key does not have/);
    expect(asked).toBe(0);
  });
});

describe('Jellyfin and Emby discovery replies', () => {
  const reply = (o: unknown) => Buffer.from(JSON.stringify(o));

  it('takes the host from the address that answered, only port, scheme and base path from the reply', () => {
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://10.9.8.7:8096/jf', Id: 'x1', Name: 'Den' }), '127.0.0.1')).toEqual({ kind: 'jellyfin', name: 'Den', url: 'http://127.0.0.1:8096/jf', id: 'x1' });
    expect(parseEmbyReply('emby', reply({ Address: 'https://nas.local', Name: 'NAS' }), '10.0.0.4')?.url).toBe('https://10.0.0.4:443');
  });

  it('ignores replies that are not a server answer', () => {
    expect(parseEmbyReply('jellyfin', Buffer.from('not json'), '127.0.0.1')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Name: 'no address' }), '127.0.0.1')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Address: 'file:///etc/passwd' }), '127.0.0.1')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://x:8096/a b' }), '127.0.0.1')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://x:8096', Name: 'x'.repeat(5000) }), '127.0.0.1')).toBeNull();
    // Only from the home network: an internet or shared (carrier NAT) address is not a LAN server.
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://x:8096' }), '8.8.8.8')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://x:8096' }), '100.64.1.2')).toBeNull();
    expect(parseEmbyReply('jellyfin', reply({ Address: 'http://x:8096' }), '192.168.1.9')?.url).toBe('http://192.168.1.9:8096');
  });

  it('sends the kind’s question and lists each server once, however often it answers', async () => {
    const sock = dgram.createSocket('udp4');
    const heard: string[] = [];
    sock.on('message', (msg, rinfo) => {
      heard.push(msg.toString());
      for (let i = 0; i < 3; i++) sock.send(JSON.stringify({ Address: 'http://127.0.0.1:8920', Id: 'e1', Name: 'Emby' }), rinfo.port, rinfo.address);
    });
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    try {
      const found = await searchEmbyServers('emby', { bindAddress: '127.0.0.1', address: '127.0.0.1', port: (sock.address() as AddressInfo).port, windowMs: 200 });
      expect(heard).toEqual(['who is EmbyServer?']);
      expect(found).toEqual([{ kind: 'emby', name: 'Emby', url: 'http://127.0.0.1:8920', id: 'e1' }]);
    } finally {
      sock.close();
    }
  });
});

describe('the folders a partial refresh names', () => {
  const lib = { id: '1', title: 'TV', type: 'tvshows', locations: ['/media/tv'] };
  it('names each new folder once when all lie inside the library; otherwise none (the whole scan)', () => {
    expect(foldersToUpdate(lib, ['/media/tv/Bluey/Season 01/a.ts', '/media/tv/Bluey/Season 01/b.ts', '/media/tv/Chase/c.ts'])).toEqual(['/media/tv/Bluey/Season 01', '/media/tv/Chase']);
    expect(foldersToUpdate(lib, ['/media/tv/Bluey/a.ts', '/media/tvx/b.ts'])).toBeNull();
    expect(foldersToUpdate(lib, ['/media/tv/../etc/a.ts'])).toBeNull();
    expect(foldersToUpdate(undefined, ['/media/tv/a.ts'])).toBeNull();
    expect(foldersToUpdate(lib, [])).toBeNull();
  });
});
