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
import { parseSimulatorMode, startGatewaySimulator } from './energy/simulator/gateway-simulator.js';
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

// `npm run demo -- --gateway=silent,strict`: absent unit ids never answer, reserved addresses answer 0x02.
const gatewayFlag = process.argv.find((a) => a.startsWith('--gateway='))?.slice('--gateway='.length) ?? process.env.DEMO_GATEWAY;
const gatewayMode = parseSimulatorMode(gatewayFlag);
const gateway = await startGatewaySimulator({ firmware: 'V2.9', now: simulatedNow, ...gatewayMode });
// Tariff, weather (a local fake of Open-Meteo) and two alerts that fire and clear within minutes.
const weather = await startFakeWeather();
fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
fs.writeFileSync(path.join(dataDir, 'energy', 'settings.json'), JSON.stringify(demoInsightSettings({ gateway, weather, pollIntervalMs: Number(process.env.POLL_INTERVAL_MS ?? 2000) }), null, 2));
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
console.log(`
Home LAN bridge demo is running (data in ${dataDir}, removed on exit).
  Energy dashboard   ${services.energy.url}/
  Live snapshot      ${services.energy.url}/api/snapshot?pretty
  Event stream       ${services.energy.url}/events
  Recordings pages   ${recordings.url}/   (press Sync now to watch live progress; API under /api/)
  Cost today         tariff in Settings › Tariff; 30-day bars on Trends
  Alerts             "Battery charging hard" fires now and clears in ~3 min; "Heavy load" fires in ~3 min, clears in ~9
  Weather            local fake of Open-Meteo at ${weather.forecastUrl}
  Simulated gateway  modbus tcp://${gateway.host}:${gateway.port} (firmware V2.9, day runs ${speed}x${gatewayFlag ? `, mode ${gatewayFlag}` : ''})
Press Ctrl+C to stop.
`);
