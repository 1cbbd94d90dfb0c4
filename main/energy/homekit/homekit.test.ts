import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { waitForState } from '../testing/harness.js';
import { parseSetupUri } from './setup-uri.js';
import { findCharacteristic, HAP_TYPES as H, HapController, PairingError, TLV_ERROR, type HapSession } from './testing/hap-controller.js';

/**
 * A HomeKit controller (Pair Setup / Pair Verify / encrypted sessions over IP) against the bridge
 * bound to 127.0.0.1, fed by the gateway simulator. hap-nodejs keeps one store per process, so the
 * whole file shares one data folder, like one installation living through restarts.
 */
const PIN = '031-45-154';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-homekit-'));
let sim: GatewaySimulator;
let service: EnergyService;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function startService(): Promise<EnergyService> {
  const s = createEnergyService(
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000', HOMEKIT_BIND: '127.0.0.1', HOMEKIT_PORT: String(port), HOMEKIT_PIN: PIN },
    },
    { logger: silentLogger },
  );
  await s.start();
  return s;
}

/** The simulator holds these flows until the test changes them (no sun, no noise). */
function setPlant(soc: number, pv: number, load: number, grid: number) {
  sim.plant.soc = soc;
  sim.plant.flows = { pvNative: pv, pvThirdParty: 0, load, smart: 0, ev: 0, battery: pv + grid - load, grid };
}

async function readValue(session: HapSession, accessory: string, serviceType: string, charType: string): Promise<unknown> {
  const c = findCharacteristic(await session.accessories(), accessory, serviceType, charType);
  const [r] = await session.read([c]);
  return r!.value ?? { status: r!.status };
}

/** Polls a read until it matches (values land on the next poll). */
async function until(read: () => Promise<unknown>, want: unknown, timeoutMs = 15_000): Promise<unknown> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(want)) return last;
    await new Promise((r) => setTimeout(r, 300));
  }
  return last;
}

const pairing = async () => (await service.app.inject({ method: 'GET', url: '/api/homehub/pairing' })).json();

beforeAll(async () => {
  port = await freePort();
  sim = await startGatewaySimulator({ firmware: 'V2.9' });
  sim.plant.step = () => undefined; // hold the values the test sets
  setPlant(64.2, 3120, 1400, -500);
  service = await startService();
  await waitForState(service, (s) => s.connected && s.battery.soc === 64.2);
}, 30_000);

afterAll(async () => {
  await service?.stop();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('HomeKit bridge over IP (loopback)', () => {
  const phone = () => new HapController('127.0.0.1', port);
  let controller: HapController;

  it('advertises on the loopback interface only', () => {
    const require = createRequire(import.meta.url);
    const { Responder } = require('@homebridge/ciao/lib/Responder.js') as { Responder: { INSTANCES: Map<string, { server: { getNetworkManager(): { getInterfaceMap(): Map<string, { loopback: boolean }> } } }> } };
    const responders = [...Responder.INSTANCES.values()];
    expect(responders.length).toBeGreaterThan(0);
    for (const r of responders) {
      const ifaces = [...r.server.getNetworkManager().getInterfaceMap().values()];
      expect(ifaces.length).toBeGreaterThan(0);
      expect(ifaces.every((i) => i.loopback)).toBe(true);
    }
  });

  it('shows the setup code, an X-HM:// URI carrying it, a QR code and paired: false', async () => {
    const p = await pairing();
    expect(p).toMatchObject({ enabled: true, running: true, paired: false, port, bind: ['127.0.0.1'], pinCode: PIN });
    expect(parseSetupUri(p.setupUri)).toMatchObject({ pin: PIN, category: 2, ip: true });
    expect(p.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });

  it('refuses a wrong setup code', async () => {
    const err = await phone().pair('123-45-679').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PairingError);
    expect((err as PairingError).tlvError).toBe(TLV_ERROR.authentication);
  });

  it('pairs with the PIN and reads the battery level and solar power the simulator serves', async () => {
    controller = phone();
    await controller.pair(PIN);
    expect((await pairing()).paired).toBe(true);
    const session = await controller.session();
    try {
      expect(await readValue(session, 'Home battery', H.battery, H.batteryLevel)).toBe(64);
      expect(await readValue(session, 'Home battery', H.humiditySensor, H.relativeHumidity)).toBe(64);
      expect(await readValue(session, 'Home battery', H.battery, H.chargingState)).toBe(1); // charging: 3120 - 1400 - 500 = 1220 W in
      expect(await readValue(session, 'Solar power', H.lightSensor, H.ambientLight)).toBe(3120);
      expect(await readValue(session, 'Grid export', H.lightSensor, H.ambientLight)).toBe(500);
      expect(await readValue(session, 'Battery charging', H.lightSensor, H.ambientLight)).toBe(1220);
      expect(await readValue(session, 'Solar power', H.lightSensor, H.statusFault)).toBe(0);
    } finally {
      session.close();
    }
  });

  it('sees new values after a poll', async () => {
    setPlant(71.6, 4400, 2000, -300);
    const session = await controller.session();
    try {
      expect(await until(() => readValue(session, 'Solar power', H.lightSensor, H.ambientLight), 4400)).toBe(4400);
      expect(await readValue(session, 'Home battery', H.battery, H.batteryLevel)).toBe(72);
      expect(await readValue(session, 'Home power', H.lightSensor, H.ambientLight)).toBe(2000);
    } finally {
      session.close();
    }
  });

  it('a second controller without the pairing is refused (setup and verify)', async () => {
    const stranger = phone();
    const setup = await stranger.pair(PIN).catch((e: unknown) => e);
    expect(setup).toBeInstanceOf(PairingError);
    expect((setup as PairingError).tlvError).toBe(TLV_ERROR.unavailable);
    const verify = await stranger.session().catch((e: unknown) => e);
    expect(verify).toBeInstanceOf(PairingError);
    expect((verify as PairingError).tlvError).toBe(TLV_ERROR.authentication);
  });

  it('shows an alert rule routed to the Home app as a contact sensor, open while active', async () => {
    const res = await service.app.inject({
      method: 'PUT',
      url: '/api/settings',
      payload: { alerts: [{ id: 'high', name: 'Battery high', trigger: 'batterySoc', condition: 'atOrAbove', threshold: 50, settleSeconds: 0, homekit: true }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitForState(service, (st) => st.alerts.some((a) => a.id === 'high'));
    const session = await controller.session();
    try {
      expect(await until(() => readValue(session, 'Battery high', H.contactSensor, H.contactState), 1)).toBe(1);
    } finally {
      session.close();
    }
  });

  it('is still paired after the service restarts', async () => {
    await service.stop();
    service = await startService();
    expect((await pairing()).paired).toBe(true);
    const session = await controller.session();
    try {
      expect(await until(() => readValue(session, 'Home battery', H.battery, H.batteryLevel), 72)).toBe(72);
    } finally {
      session.close();
    }
  });

  it('a disconnected gateway shows as a fault, with the last values kept (never zero)', async () => {
    await sim.close();
    await waitForState(service, (st) => !st.connected, 20_000);
    const session = await controller.session();
    try {
      expect(await until(() => readValue(session, 'Solar power', H.lightSensor, H.statusFault), 1)).toBe(1);
      expect(await readValue(session, 'Solar power', H.lightSensor, H.ambientLight)).toBe(4400);
      expect(await readValue(session, 'Home battery', H.battery, H.batteryLevel)).toBe(72);
    } finally {
      session.close();
    }
  });

  it('reset pairing forgets the controller and gives the bridge a new identity', async () => {
    const before = await pairing();
    const res = await service.app.inject({ method: 'POST', url: '/api/homehub/pairing/reset' });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.paired).toBe(false);
    expect(parseSetupUri(after.setupUri)!.setupId).not.toBe(parseSetupUri(before.setupUri)!.setupId);
    const err = await controller.session().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    // and a new pairing with the same code works
    await phone().pair(PIN);
    expect((await pairing()).paired).toBe(true);
  });
});
