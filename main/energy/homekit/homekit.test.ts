import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { waitForState } from '../testing/harness.js';
import { parseSetupUri } from './setup-uri.js';
import type { PairingData } from 'hap-controller/lib/protocol/pairing-protocol.js';
import { characteristicFromUuid } from 'hap-controller/lib/model/characteristic.js';
import { serviceFromUuid } from 'hap-controller/lib/model/service.js';
import { freePort } from '../../core/testing/free-port.js';

/**
 * An independent HomeKit controller from npm (hap-controller's IP transport: Pair Setup, Pair Verify,
 * encrypted sessions) against the bridge bound to 127.0.0.1, fed by the gateway simulator. Only the
 * IP client is loaded (not the package index, which pulls the BLE stack), and it is pointed straight
 * at 127.0.0.1 and the bridge's port: no mDNS or Bluetooth discovery. hap-nodejs keeps one store per
 * process, so the whole file shares one data folder, like one installation living through restarts.
 */
const load = createRequire(import.meta.url);
const HttpClient = (load('hap-controller/lib/transport/ip/http-client.js') as typeof import('hap-controller/lib/transport/ip/http-client.js')).default;
type HttpClient = InstanceType<typeof HttpClient>;
const HomekitControllerError = (load('hap-controller/lib/model/error.js') as typeof import('hap-controller/lib/model/error.js')).default;
/** TLV error codes of Pair Setup / Pair Verify (HAP spec table 5-5). */
const TLV_ERROR = { authentication: 2, unavailable: 6 } as const;

const PIN = '031-45-154';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-homekit-'));
let sim: GatewaySimulator;
let service: EnergyService;
let port: number;


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

const clients: HttpClient[] = [];
/** A controller pointed straight at the bridge on loopback (optionally with saved pairing data). */
function phone(pairing?: PairingData): HttpClient {
  const c = new HttpClient(pairing?.AccessoryPairingID ?? 'energy-bridge', '127.0.0.1', port, pairing);
  clients.push(c);
  return c;
}

/** Pairing data as a controller would persist it (a JSON round trip, nothing shared in memory). */
const saved = (c: HttpClient): PairingData => JSON.parse(JSON.stringify(c.getLongTermData())) as PairingData;

/** Reads a characteristic found by accessory name and the library's own service/characteristic names. */
async function readValue(client: HttpClient, accessory: string, serviceName: string, charName: string): Promise<unknown> {
  const { accessories } = await client.getAccessories();
  for (const a of accessories) {
    const info = a.services.find((sv) => serviceFromUuid(sv.type) === 'public.hap.service.accessory-information');
    if (info?.characteristics.find((c) => characteristicFromUuid(c.type!) === 'public.hap.characteristic.name')?.value !== accessory) continue;
    const c = a.services.find((sv) => serviceFromUuid(sv.type) === serviceName)?.characteristics.find((ch) => characteristicFromUuid(ch.type!) === charName);
    if (!c) continue;
    const { characteristics } = await client.getCharacteristics([`${a.aid}.${c.iid}`]);
    const r = characteristics[0]!;
    return r.value ?? { status: r.status };
  }
  throw new Error(`no ${charName} on a ${serviceName} service of "${accessory}"`);
}

/** The TLV error code the accessory answered with, or the error itself if it was not one. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  const err = await p.then(
    () => new Error('expected a refusal, got success'),
    (e: unknown) => e,
  );
  return err instanceof HomekitControllerError ? err.statusCode : err;
}

/** A controller key pair the bridge has never seen, in the library's pairing-data form. */
function strangerPairing(accessory: PairingData): PairingData {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return {
    AccessoryPairingID: accessory.AccessoryPairingID,
    AccessoryLTPK: accessory.AccessoryLTPK,
    iOSDevicePairingID: Buffer.from(crypto.randomUUID().toUpperCase()).toString('hex'),
    iOSDeviceLTSK: Buffer.concat([seed, pub]).toString('hex'),
    iOSDeviceLTPK: pub.toString('hex'),
  };
}

const S = {
  battery: 'public.hap.service.battery',
  humidity: 'public.hap.service.sensor.humidity',
  light: 'public.hap.service.sensor.light',
  contact: 'public.hap.service.sensor.contact',
} as const;
const C = {
  batteryLevel: 'public.hap.characteristic.battery-level',
  chargingState: 'public.hap.characteristic.charging-state',
  humidity: 'public.hap.characteristic.relative-humidity.current',
  lux: 'public.hap.characteristic.light-level.current',
  fault: 'public.hap.characteristic.status-fault',
  contact: 'public.hap.characteristic.contact-state',
} as const;

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
  await Promise.all(clients.map((c) => c.close()));
  await service?.stop();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('HomeKit bridge over IP (loopback), paired by hap-controller', () => {
  let controller: HttpClient;

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
    expect(await refusal(phone().pairSetup('123-45-679'))).toBe(TLV_ERROR.authentication);
    expect((await pairing()).paired).toBe(false);
  });

  it('pairs with the PIN and reads the battery level and solar power the simulator serves', async () => {
    controller = phone();
    await controller.pairSetup(PIN);
    expect(controller.getLongTermData()).not.toBeNull();
    expect((await pairing()).paired).toBe(true);
    expect(await readValue(controller, 'Home battery', S.battery, C.batteryLevel)).toBe(64);
    expect(await readValue(controller, 'Home battery', S.humidity, C.humidity)).toBe(64);
    expect(await readValue(controller, 'Home battery', S.battery, C.chargingState)).toBe(1); // charging: 3120 - 1400 - 500 = 1220 W in
    expect(await readValue(controller, 'Solar power', S.light, C.lux)).toBe(3120);
    expect(await readValue(controller, 'Grid export', S.light, C.lux)).toBe(500);
    expect(await readValue(controller, 'Battery charging', S.light, C.lux)).toBe(1220);
    expect(await readValue(controller, 'Solar power', S.light, C.fault)).toBe(0);
  });

  it('sees new values after a poll', async () => {
    setPlant(71.6, 4400, 2000, -300);
    expect(await until(() => readValue(controller, 'Solar power', S.light, C.lux), 4400)).toBe(4400);
    expect(await readValue(controller, 'Home battery', S.battery, C.batteryLevel)).toBe(72);
    expect(await readValue(controller, 'Home power', S.light, C.lux)).toBe(2000);
  });

  it('a second controller without the pairing is refused (setup and verify)', async () => {
    // Pair Setup again with the right code: the bridge already has an admin, so it is unavailable.
    expect(await refusal(phone().pairSetup(PIN))).toBe(TLV_ERROR.unavailable);
    // Pair Verify with keys the bridge never saw (knowing the bridge's public identity is not enough).
    const stranger = phone(strangerPairing(saved(controller)));
    expect(await refusal(stranger.getAccessories())).toBe(TLV_ERROR.authentication);
  });

  it('shows an alert rule routed to the Home app as a contact sensor, open while active', async () => {
    const res = await service.app.inject({
      method: 'PUT',
      url: '/api/settings',
      payload: { alerts: [{ id: 'high', name: 'Battery high', trigger: 'batterySoc', condition: 'atOrAbove', threshold: 50, settleSeconds: 0, homekit: true }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitForState(service, (st) => st.alerts.some((a) => a.id === 'high'));
    expect(await until(() => readValue(controller, 'Battery high', S.contact, C.contact).catch(() => undefined), 1)).toBe(1);
  });

  it('is still paired after the service restarts (a new client from the saved pairing data)', async () => {
    const keep = saved(controller);
    await controller.close();
    await service.stop();
    service = await startService();
    expect((await pairing()).paired).toBe(true);
    controller = phone(keep);
    expect(await until(() => readValue(controller, 'Home battery', S.battery, C.batteryLevel), 72)).toBe(72);
  });

  it('a disconnected gateway shows as a fault, with the last values kept (never zero)', async () => {
    await sim.close();
    await waitForState(service, (st) => !st.connected, 20_000);
    expect(await until(() => readValue(controller, 'Solar power', S.light, C.fault), 1)).toBe(1);
    expect(await readValue(controller, 'Solar power', S.light, C.lux)).toBe(4400);
    expect(await readValue(controller, 'Home battery', S.battery, C.batteryLevel)).toBe(72);
  });

  it('reset pairing forgets the controller and gives the bridge a new identity', async () => {
    const before = await pairing();
    const old = saved(controller);
    const res = await service.app.inject({ method: 'POST', url: '/api/homehub/pairing/reset' });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.paired).toBe(false);
    expect(parseSetupUri(after.setupUri)!.setupId).not.toBe(parseSetupUri(before.setupUri)!.setupId);
    await expect(phone(old).getAccessories()).rejects.toThrow();
    // and a new pairing with the same code works, with a new accessory identity
    const fresh = phone();
    await fresh.pairSetup(PIN);
    expect((await pairing()).paired).toBe(true);
    expect(fresh.getLongTermData()!.AccessoryPairingID).not.toBe(old.AccessoryPairingID);
    expect(await readValue(fresh, 'Home battery', S.battery, C.batteryLevel)).toBe(72);
  });
});
