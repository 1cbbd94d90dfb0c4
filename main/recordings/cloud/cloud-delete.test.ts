import fs from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { defaultAdTools, type AdTools } from '../adcut/tools.js';
import { sampleShow } from '../box/simulator/sample-library.js';
import { createFakeMediaServer, type FakeMediaServer } from '../mediaserver/fake-media-server.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { createCloudSimulator, type CloudSimulator } from './cloud-simulator.js';

const CODE = 'ACT-CODE-7731-SECRET';
const PIN = '90210777';
const PLEX_TOKEN = 'plexTok3n-SECRET-abcdef';

/** A logger writing JSON lines into memory, at debug level, so tests can grep what the service logs. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      cb();
    },
  });
  return { logger: createLogger({ level: 'debug', format: 'json', destination }), lines };
}

interface Setup {
  h: Harness;
  cloud: CloudSimulator;
  plex: FakeMediaServer;
  lines: string[];
  /** Every response body the tests saw. */
  bodies: string[];
  hiddenFromCloud: Set<string>;
  cleanup(): Promise<void>;
}

/**
 * A box with one followed show (`count` episodes), the cloud and the media server simulators, all
 * configured. The box is `T-0001` on the cloud account; `otherBoxFirst` lists another box before it,
 * whose library does not have these recordings.
 */
async function setup(count: number, firstId: number, opts: { otherBoxFirst?: boolean; adTools?: AdTools } = {}): Promise<Setup> {
  const { logger, lines } = capturingLogger();
  const plex = createFakeMediaServer({ token: PLEX_TOKEN, name: 'Lounge Plex' });
  await plex.start();
  const show = sampleShow('Bluey', firstId, count, (i) => 4000 + i);
  const hiddenFromCloud = new Set<string>();
  const lounge = {
    terminalId: 'T-0001',
    friendlyName: 'Lounge box',
    recordings: () => show.items.filter((it) => !hiddenFromCloud.has(it.id)).map((it) => ({ id: `cloud-${it.id}`, dlnaId: it.id, name: it.title })),
  };
  const bedroom = { terminalId: 'T-0002', friendlyName: 'Bedroom box', recordings: () => [{ id: 'bed-1', dlnaId: '123', name: 'News' }] };
  const cloud = createCloudSimulator({ activationCode: CODE, pin: PIN, boxes: opts.otherBoxFirst ? [bedroom, lounge] : [lounge] });
  await cloud.start();
  const h = await startHarness({
    box: { shows: [show] },
    config: { gdm: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: plex.gdmPort, windowMs: 300 } },
    // A box on loopback answers a ping within milliseconds; each ping a sleeping box ignores costs the whole 750 ms.
    deps: { logger, cloudTimings: { pingTimeoutMs: 750, ackTimeoutMs: 5000, requestTimeoutMs: 5000, connectTimeoutMs: 5000 }, ...(opts.adTools ? { adTools: opts.adTools } : {}) },
  });
  const bodies: string[] = [];
  const api = h.api;
  const orig = api.request.bind(api);
  api.request = async (...args: Parameters<typeof orig>) => {
    const res = await orig(...args);
    bodies.push(JSON.stringify(res.body));
    return res;
  };
  const saved = await h.api.patch('/api/settings', {
    box_address: h.box.descriptionUrl,
    media_server_url: plex.url,
    media_server_token: PLEX_TOKEN,
    media_server_section_id: '2',
    cloud_api_url: cloud.apiUrl,
    cloud_ws_url: cloud.wsUrl,
    cloud_activation_code: CODE,
    cloud_pin: PIN,
  });
  expect(saved.status).toBe(200);
  const created = await h.api.post('/api/shows', { name: 'bluey', dest_folder: 'Kids/Bluey', delete_after_download: true });
  expect(created.status).toBe(201);
  return {
    h,
    cloud,
    plex,
    lines,
    bodies,
    hiddenFromCloud,
    async cleanup() {
      await h.cleanup();
      await cloud.stop();
      await plex.stop();
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows as JSON
const rowsOf = async (h: Harness): Promise<Map<string, any>> => new Map(((await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string }>).map((r) => [r.box_id, r]));

const allSecretsAbsent = (s: Setup) => {
  const text = [...s.lines, ...s.bodies].join('\n');
  for (const secret of [CODE, PIN, PLEX_TOKEN]) expect(text).not.toContain(secret);
};

describe('with ad removal on for the show, the cloud delete waits for a verified cut', () => {
  it('keeps the box copy of a recording whose ad scan failed (no comskip): nothing is deleted', async () => {
    const s = await setup(1, 710000001, { adTools: { ...defaultAdTools, comskip: '/nonexistent/comskip' } });
    try {
      expect((await s.h.api.patch('/api/settings', { ad_removal_enabled: true })).status).toBe(200);
      const [show] = (await s.h.api.get('/api/shows')).body.shows as Array<{ id: number }>;
      expect((await s.h.api.patch(`/api/shows/${show!.id}`, { ad_mode: 'cut' })).status).toBe(200);
      const run = await s.h.syncAndWait();
      expect(run.summary).toMatchObject({ downloaded: 1, media_server_refresh: 'ok', box_deleted: 0, box_delete_kept: 1 });
      expect(s.cloud.deleted).toEqual([]);
      expect((await rowsOf(s.h)).get('710000001')).toMatchObject({ purged_at: null });
    } finally {
      await s.cleanup();
    }
  });
});

describe('sync -> media-server refresh -> delete from the box through the cloud', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(3, 700000001);
  });
  afterAll(async () => s.cleanup());

  it('downloads, refreshes the configured section, then deletes each box copy; rows become tombstones', async () => {
    const run = await s.h.syncAndWait();
    expect(run.status).toBe('ok');
    expect(run.summary).toMatchObject({ downloaded: 3, media_server_refresh: 'ok', box_deleted: 3, box_delete_failed: 0 });
    expect(s.plex.refreshes).toEqual(['2']);
    expect(s.cloud.deleted.sort()).toEqual(['cloud-700000001', 'cloud-700000002', 'cloud-700000003']);
    const rows = await rowsOf(s.h);
    for (const id of ['700000001', '700000002', '700000003']) {
      const row = rows.get(id);
      expect(row.status).toBe('done');
      expect(row.purged_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(row.deleted_from_box_at).toBe(row.purged_at);
      expect(fs.existsSync(row.file_path)).toBe(true);
    }
    // The envelopes are the vendor's (reference, Cloud delete): the ping's flags, and the delete's
    // flags, ids and event flags at message level, beside `type`.
    const ping = s.cloud.received.find((m) => (m.message as { type: string }).type === 'ARE_YOU_ALIVE') as { to: string; message: Record<string, unknown> };
    expect(ping).toEqual({ to: 'T-0001', message: { type: 'ARE_YOU_ALIVE', isQueueable: true, requiresSetTopBox: false, onlyPairedSetTopBox: true, data: { messageId: expect.stringMatching(/^T-0001_\d+$/) } } });
    const del = s.cloud.received.find((m) => (m.message as { type: string }).type === 'PENDING_DELETE_RECORDINGS_BY_ID') as { to: string; message: Record<string, unknown> };
    const id = (del.message.recordingIds as string[])[0];
    expect(id).toMatch(/^cloud-70000000\d$/);
    expect(del).toEqual({
      to: 'T-0001',
      message: {
        type: 'PENDING_DELETE_RECORDINGS_BY_ID',
        isQueueable: false,
        requiresSetTopBox: true,
        onlyPairedSetTopBox: false,
        recordingIds: [id],
        startEventRequired: false,
        progressEventRequired: false,
        endEventRequired: false,
        data: { recordingIds: [id], messageId: expect.stringMatching(/^T-0001_\d+$/) },
      },
    });
    expect(s.cloud.ignored).toEqual([]);
  });

  it('never downloads a tombstoned recording again, even while the box lists it and its file is gone', async () => {
    const rows = await rowsOf(s.h);
    const gone = rows.get('700000002').file_path as string;
    fs.rmSync(gone);
    const run = await s.h.syncAndWait();
    expect(run.summary).toMatchObject({ seen: 3, downloaded: 0 });
    expect(fs.existsSync(gone)).toBe(false);
    expect(s.plex.refreshes).toEqual(['2']); // nothing downloaded: no refresh
    expect((await rowsOf(s.h)).get('700000002').purged_at).not.toBeNull();
    // A second manual delete of a tombstone is refused.
    expect((await s.h.api.post('/api/recordings/700000001/delete-from-box')).body.error.code).toBe('already_deleted');
  });

  it('never shows or logs the token, the activation code or the PIN', async () => {
    const view = await s.h.api.get('/api/settings');
    expect(view.body.settings).toMatchObject({ media_server_token: '••••••••', cloud_pin: '••••••••', cloud_activation_code: '••••••••' });
    expect(s.lines.some((l) => l.includes('deleted the recording from the box'))).toBe(true);
    allSecretsAbsent(s);
  });
});

describe('what keeps the box copy, and each failure stage of a delete', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(3, 710000001);
  });
  afterAll(async () => s.cleanup());

  it('a failed media-server refresh blocks every deletion and is recorded in the summary', async () => {
    s.plex.refreshStatus = 500;
    const run = await s.h.syncAndWait();
    expect(run.summary).toMatchObject({ downloaded: 3, media_server_refresh: 'failed', box_deleted: 0, box_delete_kept: 3 });
    expect(run.summary.media_server_error).toContain('HTTP 500');
    expect(s.cloud.deleted).toEqual([]);
    for (const row of (await rowsOf(s.h)).values()) expect(row.purged_at).toBeNull();
  });

  const expectUntouched = async (id: string) => {
    const row = (await rowsOf(s.h)).get(id);
    expect(row).toMatchObject({ status: 'done', purged_at: null, deleted_from_box_at: null, error: null });
    expect(fs.existsSync(row.file_path)).toBe(true);
  };
  const failStage = async (id: string) => {
    const res = await s.h.api.post(`/api/recordings/${id}/delete-from-box`);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('cloud_delete_failed');
    await expectUntouched(id);
    return res.body.error as { stage: string; message: string };
  };

  it('auth: wrong PIN', async () => {
    await s.h.api.patch('/api/settings', { cloud_pin: '11112222' });
    const err = await failStage('710000001');
    expect(err.stage).toBe('auth');
    expect(err.message).toContain('Invalid activation code or PIN');
    await s.h.api.patch('/api/settings', { cloud_pin: PIN });
  });

  it('auth: a wrong PIN refused with HTTP 200 and __meta__.error is a failure in plain words', async () => {
    s.cloud.behaviour.refuseWith200 = true;
    await s.h.api.patch('/api/settings', { cloud_pin: '11112222' });
    const err = await failStage('710000001');
    expect(err.stage).toBe('auth');
    expect(err.message).toBe('Deleting from the box failed at stage auth: the cloud refused the sign-in: Invalid activation code or PIN');
    await s.h.api.patch('/api/settings', { cloud_pin: PIN });
    s.cloud.behaviour.refuseWith200 = false;
  });

  it('ws: the channel is refused', async () => {
    s.cloud.behaviour.refuseSocket = true;
    expect((await failStage('710000001')).stage).toBe('ws');
    s.cloud.behaviour.refuseSocket = false;
  });

  it('handshake: the box sleeps through both pings -> retry shortly', async () => {
    s.cloud.behaviour.sleepPings = 2;
    const before = s.cloud.received.length;
    const err = await failStage('710000001');
    expect(err.stage).toBe('handshake');
    expect(err.message).toContain('retry shortly');
    // Exactly one resend: two pings in all.
    expect(s.cloud.received.slice(before).filter((m) => (m.message as { type: string }).type === 'ARE_YOU_ALIVE')).toHaveLength(2);
    s.cloud.behaviour.sleepPings = 0;
  });

  it('translate: the cloud library does not have the recording', async () => {
    s.hiddenFromCloud.add('710000001');
    expect((await failStage('710000001')).stage).toBe('translate');
    s.hiddenFromCloud.clear();
  });

  it('ack: an acknowledgement with empty arrays is a failure', async () => {
    s.cloud.behaviour.emptyAck = true;
    const err = await failStage('710000001');
    expect(err.stage).toBe('ack');
    expect(err.message).toContain('empty acknowledgement');
    s.cloud.behaviour.emptyAck = false;
  });

  it('ack: the socket closes before the acknowledgement', async () => {
    s.cloud.behaviour.closeBeforeAck = true;
    const err = await failStage('710000001');
    expect(err.stage).toBe('ack');
    expect(err.message).toContain('closed the connection before acknowledging');
    s.cloud.behaviour.closeBeforeAck = false;
  });

  it('send or ack: the socket closes right after the handshake', async () => {
    s.cloud.behaviour.closeAfterAlive = true;
    // Whether the close lands before the delete is written depends on the socket, not on us.
    expect(['send', 'ack']).toContain((await failStage('710000001')).stage);
    s.cloud.behaviour.closeAfterAlive = false;
    expect(s.cloud.deleted).toEqual([]);
    const stages = s.lines.filter((l) => l.includes('cloud delete failed')).map((l) => (JSON.parse(l) as { stage: string }).stage);
    expect(stages).toEqual(expect.arrayContaining(['auth', 'ws', 'handshake', 'translate', 'ack']));
  });

  it('a sleeping box misses the first ping and the resend deletes', async () => {
    s.cloud.behaviour.sleepPings = 1;
    const res = await s.h.api.post('/api/recordings/710000001/delete-from-box');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cloud_id: 'cloud-710000001', purged_at: expect.stringMatching(/^\d{4}-/) });
    expect(s.cloud.deleted).toEqual(['cloud-710000001']);
    expect((await rowsOf(s.h)).get('710000001').purged_at).toBe(res.body.purged_at);
    s.cloud.behaviour.sleepPings = 0;
  });

  it('unknown recordings are 404 and the delete takes no body', async () => {
    expect((await s.h.api.post('/api/recordings/999/delete-from-box')).status).toBe(404);
    const bad = await s.h.api.post('/api/recordings/710000002/delete-from-box', { force: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('force');
    await expectUntouched('710000002');
  });

  it('cloud test lists the boxes, and a bad PIN names the stage; no secret in any answer or log', async () => {
    const ok = await s.h.api.post('/api/cloud-test');
    expect(ok.status).toBe(200);
    expect(ok.body.boxes).toEqual([{ id: 'T-0001', friendly_name: 'Lounge box', pvr: true, status: 'online' }]);
    expect(ok.body.message).toContain('Lounge box');
    s.cloud.behaviour.terminalsUnderAccount = true;
    const nested = await s.h.api.post('/api/cloud-test');
    s.cloud.behaviour.terminalsUnderAccount = false;
    expect(nested.body.boxes).toEqual(ok.body.boxes);
    await s.h.api.patch('/api/settings', { cloud_pin: '00000000' });
    const bad = await s.h.api.post('/api/cloud-test');
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatchObject({ code: 'cloud_failed', stage: 'auth' });
    s.cloud.behaviour.refuseWith200 = true;
    const bad200 = await s.h.api.post('/api/cloud-test');
    s.cloud.behaviour.refuseWith200 = false;
    expect(bad200.status).toBe(502);
    expect(bad200.body.error).toMatchObject({ code: 'cloud_failed', stage: 'auth', message: 'the cloud refused the sign-in: Invalid activation code or PIN' });
    allSecretsAbsent(s);
  });
});

describe('a box asleep during the automatic deletes', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(3, 730000001);
  });
  afterAll(async () => s.cleanup());

  it('the run records the handshake failure, keeps every row and does not ping again for each recording', async () => {
    s.cloud.behaviour.sleepPings = 99;
    const run = await s.h.syncAndWait();
    expect(run.status).toBe('ok');
    expect(run.summary).toMatchObject({ downloaded: 3, media_server_refresh: 'ok', box_deleted: 0, box_delete_failed: 3 });
    expect(run.summary.box_delete_error).toMatch(/^73000000\d at stage handshake: .*retry shortly/);
    expect(s.cloud.received.filter((m) => (m.message as { type: string }).type === 'ARE_YOU_ALIVE')).toHaveLength(2);
    for (const row of (await rowsOf(s.h)).values()) expect(row).toMatchObject({ status: 'done', purged_at: null });
    allSecretsAbsent(s);
  });
});

describe('two boxes on one account: the box that has the recordings is listed second', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup(2, 740000001, { otherBoxFirst: true });
  });
  afterAll(async () => s.cleanup());

  it("the sync deletes each box copy on that box, past the other box, asleep, and its traffic", async () => {
    s.cloud.behaviour.asleep = ['T-0002'];
    const run = await s.h.syncAndWait();
    s.cloud.behaviour.asleep = [];
    expect(run.summary).toMatchObject({ downloaded: 2, media_server_refresh: 'ok', box_deleted: 2, box_delete_failed: 0 });
    expect(s.cloud.deletes.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { terminalId: 'T-0001', id: 'cloud-740000001' },
      { terminalId: 'T-0001', id: 'cloud-740000002' },
    ]);
    for (const row of (await rowsOf(s.h)).values()) expect(row.purged_at).toMatch(/^\d{4}-/);
    expect(s.cloud.ignored).toEqual([]);
    // Only the first delete waited for the sleeping box; the next asked the box found last first.
    const pinged = s.cloud.received.filter((m) => (m.message as { type: string }).type === 'ARE_YOU_ALIVE').map((m) => m.to);
    expect(pinged).toEqual(['T-0002', 'T-0002', 'T-0001', 'T-0001']);
  });
});
