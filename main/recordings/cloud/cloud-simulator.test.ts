import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCloudSimulator, type CloudSimulator } from './cloud-simulator.js';

/**
 * The simulator acts like the real box (reference, Cloud delete): it answers only a correctly flagged
 * ping and acts only on a delete with its fields at message level. Each check sends a wrong message
 * then a right one on the same channel: the box answers in order, so the first answer that arrives
 * shows whether the wrong one was answered.
 */
describe('the cloud simulator answers only the real messages', () => {
  let cloud: CloudSimulator;
  let ws: WebSocket;
  const inbox: Array<{ sender?: string; message: { type?: string; data?: Record<string, unknown> } }> = [];
  let arrived: () => void = () => {};

  beforeAll(async () => {
    cloud = createCloudSimulator({ activationCode: 'CODE-3', pin: '5555', recordings: () => [{ id: 'c-1', dlnaId: '900000001', name: 'Bluey' }] });
    await cloud.start();
    const res = await fetch(`${cloud.apiUrl}/v3/authenticate`, { method: 'POST', body: new URLSearchParams({ activation_code: 'CODE-3', pin: '5555' }) });
    expect(await res.json()).toEqual({ __meta__: { error: null, message: null }, terminals: [expect.objectContaining({ id: 'T-0001', pvr: true })] });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    ws = new WebSocket(`${cloud.wsUrl}/v2/message/ws/messages`, { headers: { Cookie: cookie } });
    ws.on('message', (raw: WebSocket.RawData) => {
      inbox.push(JSON.parse(raw.toString()) as (typeof inbox)[number]);
      arrived();
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  });
  afterAll(async () => {
    ws.terminate();
    await cloud.stop();
  });

  /** Waits for the first message of `type` from now on (everything before it stays in `inbox`). */
  const nextOf = async (type: string, from: number) => {
    for (;;) {
      const hit = inbox.slice(from).find((m) => m.message.type === type);
      if (hit) return hit;
      await new Promise<void>((resolve) => (arrived = resolve));
    }
  };
  const send = (message: Record<string, unknown>) => ws.send(JSON.stringify({ to: 'T-0001', message }));

  it('a ping with the old flags gets no I_AM_ALIVE; the real flags get one, from the box as sender', async () => {
    const from = inbox.length;
    send({ type: 'ARE_YOU_ALIVE', isQueueable: true, requiresSetTopBox: true, onlyPairedSetTopBox: false, data: { messageId: 'T-0001_1' } });
    send({ type: 'ARE_YOU_ALIVE', isQueueable: true, requiresSetTopBox: false, onlyPairedSetTopBox: true, data: { messageId: 'T-0001_2' } });
    const alive = await nextOf('I_AM_ALIVE', from);
    expect(alive.sender).toBe('T-0001');
    expect(alive.message.data).toMatchObject({ messageId: 'T-0001_2', recordings: [expect.objectContaining({ id: 'c-1', dlnaId: '900000001', pendingDelete: false })] });
    expect(cloud.ignored).toEqual([{ type: 'ARE_YOU_ALIVE', why: expect.stringContaining('requiresSetTopBox false') }]);
  });

  it('a delete with its ids and event flags only in data is ignored; at message level it is acknowledged after other traffic', async () => {
    const from = inbox.length;
    const flags = { isQueueable: false, requiresSetTopBox: true, onlyPairedSetTopBox: false };
    const events = { startEventRequired: false, progressEventRequired: false, endEventRequired: false };
    send({ type: 'PENDING_DELETE_RECORDINGS_BY_ID', ...flags, data: { messageId: 'T-0001_3', recordingIds: ['c-1'], ...events } });
    send({ type: 'PENDING_DELETE_RECORDINGS_BY_ID', ...flags, recordingIds: ['c-1'], ...events, data: { messageId: 'T-0001_4', recordingIds: ['c-1'] } });
    const ack = await nextOf('PENDING_DELETE_RECORDINGS_BY_ID_SUCCESS', from);
    expect(ack).toMatchObject({ sender: 'T-0001', message: { data: { messageId: 'T-0001_4', recordingsIds: ['c-1'], restorationTimestamps: [expect.any(Number)] } } });
    expect(cloud.ignored.at(-1)).toEqual({ type: 'PENDING_DELETE_RECORDINGS_BY_ID', why: 'delete without recordingIds at message level' });
    // Other traffic came first: a fragment without a type and one of the box's events.
    const before = inbox.slice(from, inbox.indexOf(ack));
    expect(before.map((m) => m.message.type ?? 'untyped')).toEqual(['untyped', 'RECORDINGS_UPDATE']);
    expect(cloud.deleted).toEqual(['c-1']);
  });
});
