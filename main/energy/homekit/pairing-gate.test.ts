import { afterEach, describe, expect, it } from 'vitest';
import { startEnergyHarness } from '../testing/harness.js';
import { parseSetupUri } from './setup-uri.js';

let h: Awaited<ReturnType<typeof startEnergyHarness>> | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

describe('pairing routes and the passcode gate', () => {
  it('pairing data and reset need a session once a passcode is set; /fulfillment stays outside the gate', async () => {
    h = await startEnergyHarness({ env: { SMART_HOME_AUTH_TOKEN: 'tok-123456789' } });
    const app = h.service.app;
    const { token } = (await app.inject({ method: 'POST', url: '/api/security/passcode', payload: { passcode: '2468' } })).json();
    expect(token).toEqual(expect.any(String));

    const locked = await app.inject({ method: 'GET', url: '/api/homehub/pairing' });
    expect(locked.statusCode).toBe(401);
    expect(locked.body).not.toContain(h.service.settings.get().homekit.pin);
    expect((await app.inject({ method: 'POST', url: '/api/homehub/pairing/reset', payload: {} })).statusCode).toBe(401);

    const open = await app.inject({ method: 'GET', url: '/api/homehub/pairing', headers: { authorization: `Bearer ${token}` } });
    expect(open.statusCode).toBe(200);
    const p = open.json();
    // HomeKit is off by default: the code is still shown (to pair after enabling), nothing runs.
    expect(p).toMatchObject({ enabled: false, running: false, paired: false, pinCode: h.service.settings.get().homekit.pin });
    expect(parseSetupUri(p.setupUri)?.pin).toBe(p.pinCode);

    // Authentication 9: the smart-home token, not the passcode session, guards /fulfillment.
    const ful = await app.inject({ method: 'POST', url: '/fulfillment', payload: { requestId: 'r', inputs: [{ intent: 'action.devices.SYNC' }] }, headers: { authorization: 'Bearer tok-123456789' } });
    expect(ful.statusCode).toBe(200);
  });
});
