import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { listItems, listShowFolders } from './content-directory.js';
import { descriptionUrlFor, fetchBoxDescription } from './description.js';
import { sampleShow } from './simulator/sample-library.js';
import { createBoxSimulator, type BoxSimulator } from './simulator/box-simulator.js';
import { createSsdpResponder, type SsdpResponder } from './simulator/ssdp-responder.js';
import { discoverBoxes } from './ssdp.js';

describe('box discovery over SSDP on loopback', () => {
  let boxA: BoxSimulator;
  let boxB: BoxSimulator;
  let responder: SsdpResponder;
  beforeAll(async () => {
    boxA = createBoxSimulator({ shows: [sampleShow('Show A', 100000001, 23, () => 10)], udn: 'uuid:box-a', friendlyName: 'Lounge', maxPageSize: 5 });
    boxB = createBoxSimulator({ shows: [sampleShow('Show B', 200000001, 2, () => 10)], udn: 'uuid:box-b', friendlyName: 'Bedroom' });
    await boxA.start();
    await boxB.start();
    responder = createSsdpResponder({
      locations: () => [boxA.descriptionUrl, boxA.otherDeviceUrls.router, boxA.otherDeviceUrls.broken, boxB.descriptionUrl, `${boxB.baseUrl}/nothing.xml`],
    });
    await responder.start();
  });
  afterAll(async () => {
    await responder.stop();
    await boxA.stop();
    await boxB.stop();
  });

  it('finds every box, skips other devices, and a broken description never fails the scan', async () => {
    const found = await discoverBoxes({
      target: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: responder.port, windowMs: 250 },
      fetch,
      logger: silentLogger,
    });
    expect(found.boxes.map((b) => [b.udn, b.friendlyName, b.controlUrl]).sort()).toEqual([
      ['uuid:box-a', 'Lounge', `${boxA.baseUrl}/web/cds_control`],
      ['uuid:box-b', 'Bedroom', `${boxB.baseUrl}/web/cds_control`],
    ]);
    expect(found.skipped.map((s) => s.location).sort()).toEqual([`${boxB.baseUrl}/nothing.xml`, boxA.otherDeviceUrls.broken, boxA.otherDeviceUrls.router].sort());
    expect(responder.searches()).toBeGreaterThan(0);
  });

  it('falls back to a manual address (port 49152 implied, or a full URL)', async () => {
    expect(descriptionUrlFor('192.168.1.20')).toBe('http://192.168.1.20:49152/MediaServer.xml');
    expect(descriptionUrlFor('10.0.0.2:8080')).toBe('http://10.0.0.2:8080/MediaServer.xml');
    const box = await fetchBoxDescription(fetch, descriptionUrlFor(new URL(boxA.baseUrl).host), 2000);
    expect(box).toMatchObject({ udn: 'uuid:box-a', manufacturer: 'Fetch Technologies Co., Ltd', modelName: 'Fetch DLNA1.5 DMS' });
  });

  it('browses Recordings by title and pages until TotalMatches when the box returns fewer than asked', async () => {
    const browse = { fetch, controlUrl: `${boxA.baseUrl}/web/cds_control`, pageSize: 10 };
    const folders = await listShowFolders(browse);
    expect(folders).toEqual([{ id: '60', title: 'Show A', childCount: 23 }]);
    const items = await listItems(browse, '60');
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: 23 }, (_, i) => String(100000001 + i)));
    const pages = boxA.browses.filter((b) => b.objectId === '60');
    expect(pages.map((p) => [p.start, p.asked, p.returned])).toEqual([[0, 10, 5], [5, 10, 5], [10, 10, 5], [15, 10, 5], [20, 10, 3]]);
  });
});
