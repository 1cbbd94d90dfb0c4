/**
 * `npm run demo`: both services against the built-in simulators (a gateway on loopback whose
 * simulated day runs 30x faster, and a recording box), in a throw-away data folder.
 * Everything binds to 127.0.0.1; nothing touches the LAN.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from './core/logger.js';
import { PortInUseError } from './core/startup.js';
import { composeServices } from './compose.js';
import { loopbackInterfaces } from './energy/discovery/lan-scan.js';
import { startGatewaySimulator } from './energy/simulator/gateway-simulator.js';
import { startRecordingsDemo } from './recordings/index.js';
import { demoInsightSettings } from './energy/demo-insight.js';
import { startFakeWeather } from './energy/weather/fake-server.js';

const logger = createLogger({ name: 'demo', level: process.env.LOG_LEVEL ?? 'warn' });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'home-lan-bridge-demo-'));
const speed = Number(process.env.DEMO_SPEED ?? 30);
const realStart = Date.now();
const simStart = new Date();
simStart.setHours(9, 30, 0, 0);
const simulatedNow = () => simStart.getTime() + (Date.now() - realStart) * speed;

const gateway = await startGatewaySimulator({ firmware: 'V2.9', now: simulatedNow });
// Tariff, weather (a local fake of Open-Meteo) and two alerts that fire and clear within minutes.
const weather = await startFakeWeather();
fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
// HomeKit bridge published and advertised on loopback only (never the LAN).
const homekit = { enabled: true, bind: ['127.0.0.1'], port: Number(process.env.HOMEKIT_PORT ?? 51827), ...(process.env.HOMEKIT_PIN ? { pin: process.env.HOMEKIT_PIN } : {}) };
fs.writeFileSync(path.join(dataDir, 'energy', 'settings.json'), JSON.stringify({ ...demoInsightSettings({ gateway, weather, pollIntervalMs: Number(process.env.POLL_INTERVAL_MS ?? 2000) }), homekit }, null, 2));
const env = {
  ...process.env,
  GATEWAY_HOST: gateway.host,
  GATEWAY_PORT: String(gateway.port),
  POLL_INTERVAL_MS: process.env.POLL_INTERVAL_MS ?? '2000',
};
// Discovery in the demo scans 127.0.0.0/24 for the simulator's port: never the real LAN.
const services = composeServices({
  dataDir,
  env,
  logger,
  host: '127.0.0.1',
  recordings: false,
  discovery: { interfaces: () => loopbackInterfaces(gateway.host), discoveryPort: gateway.port, discoveryIncludeInternal: true },
});

let recordings: Awaited<ReturnType<typeof startRecordingsDemo>> | null = null;
async function shutdown() {
  setTimeout(() => process.exit(1), 5000).unref();
  await recordings?.stop();
  await services.stop();
  await gateway.close();
  await weather.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

try {
  await services.start();
  recordings = await startRecordingsDemo({ dataDir, port: Number(process.env.PORT ?? 8124), logger });
} catch (err) {
  // One clear line (a taken port names the variable that moves it), and no data folder left behind.
  process.stderr.write(`demo could not start: ${err instanceof PortInUseError ? err.message : String((err as Error).stack ?? err)}\n`);
  await services.stop().catch(() => undefined);
  await gateway.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
const hk = (await services.energy.app.inject({ method: 'GET', url: '/api/homehub/pairing' })).json() as { running: boolean; port: number | null; pinCode: string; error: string | null };
console.log(`
Home LAN bridge demo is running (data in ${dataDir}, removed on exit).
  Energy dashboard   ${services.energy.url}/
  Live snapshot      ${services.energy.url}/api/snapshot?pretty
  Event stream       ${services.energy.url}/events
  Recordings pages   ${recordings.url}/   (press Sync now to watch live progress; API under /api/)
  Cost today         tariff in Settings › Tariff; 30-day bars on Trends
  Alerts             "Battery charging hard" fires now and clears in ~3 min; "Heavy load" fires in ~3 min, clears in ~9
  Weather            local fake of Open-Meteo at ${weather.forecastUrl}
  HomeKit bridge     ${hk.running ? `127.0.0.1:${hk.port} (loopback only), setup code ${hk.pinCode}` : `not running: ${hk.error}`}
  Simulated gateway  modbus tcp://${gateway.host}:${gateway.port} (firmware V2.9, day runs ${speed}x)
Press Ctrl+C to stop.
`);
