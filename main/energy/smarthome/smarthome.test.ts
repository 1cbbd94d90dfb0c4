import { afterEach, describe, expect, it } from 'vitest';
import { startEnergyHarness, waitForState } from '../testing/harness.js';

/** The fulfillment endpoint against a live service polling the gateway simulator on loopback. */
let h: Awaited<ReturnType<typeof startEnergyHarness>> | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const TOKEN = 'linked-token-7f3a9c2e1b';

async function start(env: Record<string, string> = { SMART_HOME_AUTH_TOKEN: TOKEN }) {
  h = await startEnergyHarness({ env });
  h.sim.plant.step = () => undefined; // hold the values set below
  h.sim.plant.soc = 47.4;
  h.sim.plant.flows = { pvNative: 2500, pvThirdParty: 0, load: 900, smart: 0, ev: 0, battery: 1000, grid: -600 };
  await waitForState(h.service, (s) => s.connected && s.battery.soc === 47.4 && s.power.solar === 2500);
  return h;
}

const body = (intent: string, payload?: unknown) => ({ requestId: 'req-1', inputs: [{ intent, ...(payload ? { payload } : {}) }] });

function post(payload: unknown, token: string | null = TOKEN, contentType = 'application/json') {
  return h!.service.app.inject({
    method: 'POST',
    url: '/fulfillment',
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'content-type': contentType, ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
  });
}

describe('POST /fulfillment with SMART_HOME_AUTH_TOKEN set', () => {
  it('SYNC lists the battery (EnergyStorage, query-only) and the power flows as query-only sensors', async () => {
    await start();
    const res = await post(body('action.devices.SYNC'));
    expect(res.statusCode).toBe(200);
    const out = res.json();
    expect(out.requestId).toBe('req-1');
    expect(out.payload.agentUserId).toEqual(expect.any(String));
    const battery = out.payload.devices.find((d: { id: string }) => d.id === 'battery');
    expect(battery).toMatchObject({ traits: ['action.devices.traits.EnergyStorage'], attributes: { queryOnlyEnergyStorage: true, isRechargeable: true }, willReportState: false });
    const sensors = out.payload.devices.filter((d: { type: string }) => d.type === 'action.devices.types.SENSOR');
    expect(sensors.map((d: { name: { name: string } }) => d.name.name)).toEqual(['Solar power', 'Home power', 'Grid import', 'Grid export', 'Battery charging', 'Battery discharging']);
    for (const s of sensors) expect(s.attributes.queryOnlySensorState).toBe(true);
  });

  it("SYNC puts the battery in the room named after the bridge (HomeKit's bridge name)", async () => {
    await start();
    const roomHint = async () => (await post(body('action.devices.SYNC'))).json().payload.devices.find((d: { id: string }) => d.id === 'battery').roomHint;
    expect(await roomHint()).toBe('Energy Bridge');
    const put = await h!.service.app.inject({ method: 'PUT', url: '/api/settings', payload: { homekit: { bridgeName: 'Garage' } } });
    expect(put.statusCode, put.body).toBe(200);
    expect(await roomHint()).toBe('Garage');
  });

  it('QUERY answers only the devices asked for, with the live values', async () => {
    await start();
    const res = await post(body('action.devices.QUERY', { devices: [{ id: 'battery' }, { id: 'power-solar' }] }));
    expect(res.statusCode).toBe(200);
    const { devices } = res.json().payload;
    expect(Object.keys(devices).sort()).toEqual(['battery', 'power-solar']);
    expect(devices.battery).toMatchObject({ online: true, status: 'SUCCESS', isCharging: true, descriptiveCapacityRemaining: 'MEDIUM' });
    expect(devices.battery.capacityRemaining).toContainEqual({ rawValue: 47, unit: 'PERCENTAGE' });
    expect(devices['power-solar']).toMatchObject({ online: true, currentSensorStateData: [{ name: 'Power', rawValue: 2500 }] });
  });

  it('QUERY reports a disconnected gateway as offline, not as zero', async () => {
    await start();
    await h!.sim.close();
    await waitForState(h!.service, (s) => !s.connected, 20_000);
    const { devices } = (await post(body('action.devices.QUERY', { devices: [{ id: 'battery' }, { id: 'power-home' }] }))).json().payload;
    expect(devices.battery).toEqual({ online: false, status: 'OFFLINE' });
    expect(devices['power-home']).toEqual({ online: false, status: 'OFFLINE' });
  });

  it('EXECUTE on a query-only device returns the protocol error (and deviceNotFound for an unknown id)', async () => {
    await start();
    const res = await post(body('action.devices.EXECUTE', { commands: [{ devices: [{ id: 'battery' }, { id: 'nope' }], execution: [{ command: 'action.devices.commands.Charge', params: { charge: true } }] }] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.commands).toEqual([
      { ids: ['battery'], status: 'ERROR', errorCode: 'functionNotSupported' },
      { ids: ['nope'], status: 'ERROR', errorCode: 'deviceNotFound' },
    ]);
  });

  it('DISCONNECT answers 200 with an empty body', async () => {
    await start();
    const res = await post(body('action.devices.DISCONNECT'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
  });

  it('401 without the token or with a wrong one (same length or not), for every intent', async () => {
    await start();
    for (const intent of ['action.devices.SYNC', 'action.devices.QUERY', 'action.devices.EXECUTE', 'action.devices.DISCONNECT']) {
      for (const token of [null, 'wrong', TOKEN.replace(/.$/, 'x'), `${TOKEN}x`]) {
        const res = await post(body(intent, { devices: [{ id: 'battery' }] }), token);
        expect(res.statusCode, `${intent} with ${token}`).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });

  it('400 naming the field for a malformed body, and for an unknown intent', async () => {
    await start();
    const broken = await post('{"requestId": "x", "inputs": [', TOKEN);
    expect(broken.statusCode).toBe(400);
    const noInputs = await post({ requestId: 'x' });
    expect(noInputs.statusCode).toBe(400);
    expect(noInputs.json().error.field).toBe('inputs');
    const unknown = await post(body('action.devices.REBOOT'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ field: 'inputs.0.intent' });
    expect(unknown.json().error.message).toContain('REBOOT');
  });

  it('/auth redirects only to an https redirect_uri; /token hands out the token /fulfillment expects', async () => {
    await start();
    const ok = await h!.service.app.inject({ method: 'GET', url: `/auth?client_id=g&response_type=code&state=s1&redirect_uri=${encodeURIComponent('https://oauth-redirect.example.com/r/proj')}` });
    expect(ok.statusCode).toBe(302);
    const to = new URL(ok.headers.location as string);
    expect(to.origin + to.pathname).toBe('https://oauth-redirect.example.com/r/proj');
    expect(to.searchParams.get('state')).toBe('s1');
    const code = to.searchParams.get('code');
    expect(code).toMatch(/^[0-9a-f]{32}$/);

    for (const bad of ['http://evil.example.com/', 'javascript:alert(1)', '//evil.example.com', '/local']) {
      const res = await h!.service.app.inject({ method: 'GET', url: `/auth?state=s&redirect_uri=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.json().error.field).toBe('redirect_uri');
    }

    const tok = await h!.service.app.inject({ method: 'POST', url: '/token', payload: `grant_type=authorization_code&code=${code}&client_id=g&client_secret=any`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(tok.statusCode).toBe(200);
    const accessToken = tok.json().access_token;
    expect(tok.json().token_type).toBe('Bearer');
    expect((await post(body('action.devices.SYNC'), accessToken)).statusCode).toBe(200);
  });
});

describe('POST /fulfillment without a token configured', () => {
  it('is public when enabled and SMART_HOME_AUTH_TOKEN is not set; answers 404 while smart-home is off', async () => {
    await start({});
    const off = await post(body('action.devices.SYNC'), null);
    expect(off.statusCode).toBe(404);
    expect(off.json().error.message).toContain('turn on the smart-home link in the settings');
    const put = await h!.service.app.inject({ method: 'PUT', url: '/api/settings', payload: { smartHome: { enabled: true } } });
    expect(put.statusCode).toBe(200);
    for (const intent of ['action.devices.SYNC', 'action.devices.QUERY', 'action.devices.EXECUTE', 'action.devices.DISCONNECT']) {
      const res = await post(body(intent, { devices: [{ id: 'battery' }], commands: [] }), null);
      expect(res.statusCode, intent).toBe(200);
    }
    const q = (await post(body('action.devices.QUERY', { devices: [{ id: 'power-gridExport' }] }), null)).json();
    expect(q.payload.devices['power-gridExport'].currentSensorStateData[0].rawValue).toBe(600);
  });
});
