import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { PairingData } from 'hap-controller/lib/protocol/pairing-protocol.js';
import { characteristicFromUuid } from 'hap-controller/lib/model/characteristic.js';
import { serviceFromUuid } from 'hap-controller/lib/model/service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { waitForState } from '../testing/harness.js';
import { runSigenImportCli } from './cli.js';
import { hashTree, sigenFacts, sigenFolderCopy } from './testing/sigen-fixture.js';
import { freePort } from '../../core/testing/free-port.js';

/**
 * A Home app that was paired with the old bridge keeps working after the import, without pairing
 * again: hap-controller (an independent HomeKit controller from npm, IP transport only, pointed
 * straight at 127.0.0.1) loaded with the controller side of that pairing (controller-pairing.json,
 * written when the real sigen-home-bridge was paired) does Pair Verify against our bridge and reads
 * the battery level the gateway simulator serves. A controller with keys the old bridge never saw
 * is refused, so it is the carried pairing that lets it in.
 */
const load = createRequire(import.meta.url);
const HttpClient = (load('hap-controller/lib/transport/ip/http-client.js') as typeof import('hap-controller/lib/transport/ip/http-client.js')).default;
type HttpClient = InstanceType<typeof HttpClient>;

const src = sigenFolderCopy();
const srcBefore = hashTree(src);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-sigen-homekit-'));
const pairingData = JSON.parse(fs.readFileSync(path.join(src, 'controller-pairing.json'), 'utf8')) as PairingData;
let sim: GatewaySimulator;
let service: EnergyService;
let port: number;
const clients: HttpClient[] = [];


function controller(data: PairingData): HttpClient {
  const c = new HttpClient(facts.homekit.bridge_username, '127.0.0.1', port, data);
  clients.push(c);
  return c;
}
const facts = sigenFacts as typeof sigenFacts & { homekit: { setup_uri: string } };

async function batteryLevel(client: HttpClient): Promise<unknown> {
  const { accessories } = await client.getAccessories();
  for (const a of accessories) {
    const c = a.services.find((sv) => serviceFromUuid(sv.type) === 'public.hap.service.battery')?.characteristics.find((ch) => characteristicFromUuid(ch.type!) === 'public.hap.characteristic.battery-level');
    if (!c) continue;
    const { characteristics } = await client.getCharacteristics([`${a.aid}.${c.iid}`]);
    return characteristics[0]!.value;
  }
  throw new Error('no battery level among the bridge’s accessories');
}

beforeAll(async () => {
  const out: string[] = [];
  const code = await runSigenImportCli([src, '--data-dir', dataDir], { out: (l) => out.push(l), err: (l) => out.push(l), env: {}, now: () => facts.history.max_t, logger: silentLogger });
  expect(code, out.join('\n')).toBe(0);
  // The imported settings name the old gateway and HomeKit port; this test moves both to loopback
  // ports of its own (a gateway simulator, a free port).
  port = await freePort();
  sim = await startGatewaySimulator({ firmware: 'V2.9' });
  sim.plant.step = () => undefined;
  sim.plant.soc = 73.4;
  const file = path.join(dataDir, 'energy', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  settings.gateway = { ...settings.gateway, host: '127.0.0.1', port: sim.port };
  settings.homekit = { ...settings.homekit, port };
  fs.writeFileSync(file, JSON.stringify(settings));
  service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: {} }, { logger: silentLogger });
  await service.start();
  await waitForState(service, (s) => s.connected && s.battery.soc === 73.4);
}, 40_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await service?.stop();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(src, { recursive: true, force: true });
});

describe('the Home app paired with sigen-home-bridge, after the import', () => {
  it('reads the battery level from this bridge without pairing again', async () => {
    const phone = controller(pairingData);
    expect(await batteryLevel(phone)).toBe(73);
  });

  it('a controller the old bridge never paired is refused', async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
    const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
    const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
    const stranger = controller({ ...pairingData, iOSDevicePairingID: Buffer.from(crypto.randomUUID()).toString('hex'), iOSDeviceLTSK: Buffer.concat([seed, pub]).toString('hex'), iOSDeviceLTPK: pub.toString('hex') });
    await expect(batteryLevel(stranger)).rejects.toThrow();
  });

  it('shows the bridge as paired, with the old setup code and setup URI, unlocked by the old passcode', async () => {
    const unlock = await service.app.inject({ method: 'POST', url: '/api/unlock', payload: { passcode: facts.passcode.value } });
    expect(unlock.statusCode).toBe(200);
    const p = (await service.app.inject({ method: 'GET', url: '/api/homehub/pairing', headers: { authorization: `Bearer ${unlock.json().token}` } })).json();
    expect(p).toMatchObject({ running: true, paired: true, pinCode: facts.homekit.pin, setupUri: facts.homekit.setup_uri });
  });

  it('left the folder it imported from as it was', () => {
    expect(hashTree(src)).toEqual(srcBefore);
  });
});
