import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CloudError, cloudDelete } from './cloud-client.js';
import { createCloudSimulator, type CloudSimulator } from './cloud-simulator.js';

/**
 * The spec's handshake with the shipped timings: the ping is resent once, 2 attempts of 10 seconds,
 * before a retry-shortly error at the `handshake` stage. The clock is faked (timers and Date only;
 * the sockets are real) so the 20 seconds pass at once.
 */
describe('cloud handshake with the default timings', () => {
  let cloud: CloudSimulator;
  beforeAll(async () => {
    cloud = createCloudSimulator({ activationCode: 'CODE-1', pin: '1234', recordings: () => [{ id: 'c-1', dlnaId: '700000001', name: 'Bluey' }] });
    await cloud.start();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await cloud.stop();
  });

  const pings = () => cloud.received.filter((m) => (m.message as { type?: string } | undefined)?.type === 'ARE_YOU_ALIVE').length;
  /** Lets real socket I/O run (setImmediate is not faked) until `probe` holds. */
  const until = async (probe: () => boolean) => {
    const deadline = performance.now() + 10_000; // real time: performance.now is not faked
    while (!probe() && performance.now() < deadline) await new Promise((r) => setImmediate(r));
    expect(probe()).toBe(true);
  };
  const settleIo = async () => {
    for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
  };

  it('pings twice, 10 s apart, then fails at the handshake stage', async () => {
    cloud.behaviour.sleepPings = 99; // the box sleeps through every ping
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let outcome: unknown = 'pending';
    void cloudDelete({ fetch, now: () => Date.now() }, { apiUrl: cloud.apiUrl, wsUrl: cloud.wsUrl, activationCode: 'CODE-1', pin: '1234' }, '700000001').then(
      (r) => (outcome = r),
      (e: unknown) => (outcome = e),
    );
    await until(() => pings() === 1);

    await vi.advanceTimersByTimeAsync(9_900);
    await settleIo();
    expect(pings()).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    await until(() => pings() === 2);

    await vi.advanceTimersByTimeAsync(9_700);
    await settleIo();
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(400);
    await until(() => outcome !== 'pending');
    expect(outcome).toBeInstanceOf(CloudError);
    expect(outcome).toMatchObject({ stage: 'handshake' });
    expect((outcome as Error).message).toMatch(/2 pings of 10 s.*retry shortly/);
    expect(pings()).toBe(2);
  });
});
