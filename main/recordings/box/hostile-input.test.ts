import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { fetchBounded } from './bounded-fetch.js';
import { browseChildren } from './content-directory.js';
import { parseDescription } from './description.js';
import { parseDidl } from './didl.js';
import { createBoxSimulator, type BoxSimulator } from './simulator/box-simulator.js';
import { sampleShow } from './simulator/sample-library.js';
import { createSsdpResponder, type SsdpResponder } from './simulator/ssdp-responder.js';
import { discoverBoxes } from './ssdp.js';

const didl = (items: string) => `<DIDL-Lite xmlns:dc="http://purl.org/dc/elements/1.1/">${items}</DIDL-Lite>`;

describe('XML from a device', () => {
  it('refuses a DIDL-Lite or description with a DTD, however small', () => {
    const doc = '<!DOCTYPE DIDL-Lite [<!ENTITY e "x">]>' + didl('<item id="1" parentID="0"><dc:title>&e;</dc:title><res size="1">http://h/1</res></item>');
    expect(() => parseDidl(doc)).toThrow(/DTD or entity declarations is refused/);
    expect(() => parseDidl(didl('<!ENTITY e "x">'))).toThrow(/refused/);
    expect(() => parseDescription('<!DOCTYPE root SYSTEM "http://evil/x.dtd"><root/>', 'http://127.0.0.1:1/d.xml')).toThrow(/refused/);
  });

  it('still decodes the predefined and numeric entities real titles carry', () => {
    const [item] = parseDidl(didl('<item id="1" parentID="0"><dc:title>Tom &amp; Jerry &#233;t&#xE9; &lt;3&gt; &quot;x&quot; &nbsp;</dc:title><res size="1">http://h/1</res></item>'));
    expect(item).toMatchObject({ title: 'Tom & Jerry été <3> "x" \u00a0' });
  });

  it('caps titles and drops entries whose id is empty, too long or has control characters', () => {
    const entries = parseDidl(
      didl(
        `<item id="1" parentID="0"><dc:title>${'t'.repeat(50_000)}</dc:title><res size="1">http://h/1</res></item>` +
          `<item id="${'9'.repeat(129)}" parentID="0"><dc:title>long id</dc:title><res size="1">http://h/2</res></item>` +
          `<item id="a\u0001b" parentID="0"><dc:title>control id</dc:title><res size="1">http://h/3</res></item>` +
          `<item id="" parentID="0"><dc:title>no id</dc:title><res size="1">http://h/4</res></item>` +
          `<container id="${'8'.repeat(200)}" parentID="0"><dc:title>long container</dc:title></container>`,
      ),
    );
    expect(entries.map((e) => e.id)).toEqual(['1']);
    expect(entries[0]!.title.length).toBeLessThanOrEqual(500);
  });

  it('refuses a description whose control URL is on another host', () => {
    const xml = `<root><device><manufacturerURL>http://www.fetch.com/</manufacturerURL><serviceList><service>
      <serviceType>urn:schemas-upnp-org:service:ContentDirectory:1</serviceType><controlURL>http://127.0.0.9:8080/cds</controlURL>
      </service></serviceList></device></root>`;
    expect(() => parseDescription(xml, 'http://127.0.0.1:49152/MediaServer.xml')).toThrow(/another host/);
    expect(parseDescription(xml.replace('http://127.0.0.9:8080/cds', '/web/cds_control'), 'http://127.0.0.1:49152/MediaServer.xml').controlUrl).toBe(
      'http://127.0.0.1:49152/web/cds_control',
    );
  });
});

describe('reading a response from a device into memory', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/announced') {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
        res.write('x'.repeat(1024)); // then stalls; the client must not wait for the rest
        return;
      }
      if (req.url === '/chunked') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'y');
        let sent = 0;
        const pump = () => {
          while (sent < 20 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (sent = Infinity));
        pump();
        return;
      }
      if (req.url === '/drip') {
        res.writeHead(200);
        const t = setInterval(() => res.write('z'), 20);
        res.on('close', () => clearInterval(t));
        return;
      }
      res.writeHead(200).end('<ok/>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const limits = { maxBytes: 1024 * 1024, timeoutMs: 5000, what: 'the test answer' };

  it('reads a small answer', async () => {
    expect((await fetchBounded(fetch, `${base}/ok`, {}, limits)).text).toBe('<ok/>');
  });

  it('refuses an answer announcing more than the limit without reading it', async () => {
    await expect(fetchBounded(fetch, `${base}/announced`, {}, limits)).rejects.toThrow(/the test answer is larger than 1048576 bytes: refused/);
  });

  it('stops reading a chunked answer as soon as it passes the limit', async () => {
    await expect(fetchBounded(fetch, `${base}/chunked`, {}, limits)).rejects.toThrow(/larger than 1048576 bytes/);
  });

  it('gives up on an answer that never ends, body included', async () => {
    await expect(fetchBounded(fetch, `${base}/drip`, {}, { ...limits, timeoutMs: 300 })).rejects.toThrow(/the test answer: timed out after 300 ms/);
  });
});

describe('a box that lists a container one entry per page', () => {
  let box: BoxSimulator;
  beforeAll(async () => {
    box = createBoxSimulator({ shows: [sampleShow('Show', 100000001, 40, () => 10)], maxPageSize: 1 });
    await box.start();
  });
  afterAll(async () => box.stop());

  it('is given a total time for all pages, not only per page', async () => {
    const opts = { fetch, controlUrl: `${box.baseUrl}/web/cds_control` };
    expect(await browseChildren(opts, '60')).toHaveLength(40);
    // 40 round trips cannot fit in 1 ms: the listing is refused part-way, naming the limit.
    await expect(browseChildren({ ...opts, totalTimeoutMs: 1 }, '60')).rejects.toThrow(/took longer than 0 s to list it: refused/);
  });
});

describe('SSDP replies', () => {
  let box: BoxSimulator;
  let responder: SsdpResponder;
  beforeAll(async () => {
    // The box listens on 127.0.0.2; the responder answers from 127.0.0.1 naming the box's URL.
    box = createBoxSimulator({ shows: [sampleShow('Show', 100000001, 1, () => 10)], host: '127.0.0.2' });
    await box.start();
    responder = createSsdpResponder({ locations: () => [box.descriptionUrl] });
    await responder.start();
  });
  afterAll(async () => {
    await responder.stop();
    await box.stop();
  });

  it('follows a LOCATION only on the host that sent the reply', async () => {
    const found = await discoverBoxes({
      target: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: responder.port, windowMs: 250 },
      fetch,
      logger: silentLogger,
    });
    expect(responder.searches()).toBeGreaterThan(0);
    expect(found.boxes).toEqual([]);
    expect(found.skipped).toEqual([]);
  });
});
