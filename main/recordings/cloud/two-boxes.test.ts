import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cloudDelete, CloudError } from './cloud-client.js';
import { createCloudSimulator, type CloudSimulator } from './cloud-simulator.js';

/**
 * Two boxes on one account, the bedroom box listed first: the recording is on the lounge box. Replies
 * count only from the box named in their top-level `sender`, whatever else the cloud sends.
 */
describe('cloud delete with two boxes on one account', () => {
  let cloud: CloudSimulator;
  const account = () => ({ apiUrl: cloud.apiUrl, wsUrl: cloud.wsUrl, activationCode: 'CODE-2', pin: '4321' });
  const deps = { fetch, now: () => Date.now(), timings: { pingTimeoutMs: 1000, pingAttempts: 2, ackTimeoutMs: 3000, requestTimeoutMs: 3000, connectTimeoutMs: 3000 } };
  const pingsTo = (from: number) =>
    cloud.received
      .slice(from)
      .filter((m) => (m.message as { type: string }).type === 'ARE_YOU_ALIVE')
      .map((m) => m.to);

  beforeAll(async () => {
    cloud = createCloudSimulator({
      activationCode: 'CODE-2',
      pin: '4321',
      boxes: [
        { terminalId: 'T-0002', friendlyName: 'Bedroom box', recordings: () => [{ id: 'bed-1', dlnaId: '810000009', name: 'News' }] },
        {
          terminalId: 'T-0001',
          friendlyName: 'Lounge box',
          recordings: () => [
            { id: 'lounge-1', dlnaId: '800000001', name: 'Bluey' },
            { id: 'lounge-2', dlnaId: '800000002', name: 'Bluey' },
            { id: 'lounge-3', dlnaId: '800000003', name: 'Bluey' },
            { id: 'lounge-4', dlnaId: '800000004', name: 'Bluey' },
          ],
        },
      ],
    });
    await cloud.start();
  });
  afterAll(async () => cloud.stop());
  afterEach(() => {
    Object.assign(cloud.behaviour, { asleep: [], late: [], eventsBeforeAck: 0 });
  });

  it("asks the first box, then deletes on the second; the first box's traffic before the ack is skipped", async () => {
    const from = cloud.received.length;
    const result = await cloudDelete(deps, account(), '800000001');
    expect(result).toEqual({ cloud_id: 'lounge-1', terminal_id: 'T-0001', already_pending: false });
    expect(pingsTo(from)).toEqual(['T-0002', 'T-0001']);
    // The bedroom box acknowledged another app's delete with empty arrays just before the lounge box's ack.
    expect(cloud.deletes).toEqual([{ terminalId: 'T-0001', id: 'lounge-1' }]);
  });

  it('a sleeping first box does not stop the second', async () => {
    cloud.behaviour.asleep = ['T-0002'];
    const from = cloud.received.length;
    const result = await cloudDelete(deps, account(), '800000002');
    expect(result).toMatchObject({ cloud_id: 'lounge-2', terminal_id: 'T-0001' });
    expect(pingsTo(from)).toEqual(['T-0002', 'T-0002', 'T-0001']);
  });

  it("the first box's late reply is not read as the second box's library", async () => {
    // The bedroom box's answers to both pings arrive only after the lounge box was asked.
    cloud.behaviour.late = ['T-0002'];
    const result = await cloudDelete(deps, account(), '800000003');
    expect(result).toMatchObject({ cloud_id: 'lounge-3', terminal_id: 'T-0001' });
    expect(cloud.deletes.at(-1)).toEqual({ terminalId: 'T-0001', id: 'lounge-3' });
  });

  it('a hundred events before the acknowledgement do not hide it', async () => {
    cloud.behaviour.eventsBeforeAck = 100;
    const result = await cloudDelete(deps, account(), '800000004');
    expect(result).toMatchObject({ cloud_id: 'lounge-4', terminal_id: 'T-0001' });
  });

  it('the box that may have the recording sleeps: a handshake failure naming it, retry shortly', async () => {
    cloud.behaviour.asleep = ['T-0001'];
    const err = await cloudDelete(deps, account(), '800000001').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudError);
    expect(err).toMatchObject({ stage: 'handshake' });
    expect((err as Error).message).toBe('box Lounge box (T-0001) did not answer the cloud (2 pings of 1 s) (the others do not have recording 800000001): it may be asleep, retry shortly');
  });

  it('signs in with the boxes listed under account.terminals', async () => {
    cloud.behaviour.terminalsUnderAccount = true;
    const from = cloud.received.length;
    try {
      const err = await cloudDelete(deps, account(), '800000009').catch((e: unknown) => e);
      // Both boxes were found and asked: the recording is on neither.
      expect(err).toMatchObject({ stage: 'translate' });
      expect(pingsTo(from)).toEqual(['T-0002', 'T-0001']);
    } finally {
      cloud.behaviour.terminalsUnderAccount = false;
    }
  });
});
