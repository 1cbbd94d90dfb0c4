/**
 * `npm run demo`: both services against the built-in simulators (a gateway on loopback whose
 * simulated day runs 30x faster, and a recording box), in a throw-away data folder.
 * Everything binds to 127.0.0.1; nothing touches the LAN.
 */
import './core/require-node.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDemoClock } from './core/clock.js';
import { createLogger } from './core/logger.js';
import { removeDemoFolder } from './demo-cleanup.js';
import { seedDemoHistory } from './energy/demo/past.js';
import { PortInUseError } from './core/startup.js';
import { composeServices } from './compose.js';
import { loopbackInterfaces } from './energy/discovery/lan-scan.js';
import { parseSimulatorMode, startGatewaySimulator } from './energy/simulator/gateway-simulator.js';
import { installUnhandledRejectionLogging } from './recordings/index.js';
import { startRecordingsDemo } from './recordings/demo.js';
import { demoInsightSettings } from './energy/demo/insight.js';
import { startFakeWeather } from './energy/weather/fake-server.js';
import { startAmberSimulator } from './energy/prices/amber-simulator.js';
import { demoControlSettings, demoSky, FOLLOW_THE_PRICE } from './energy/demo/control.js';
import { systemTimeZone } from './core/time-zone.js';

const logger = createLogger({ name: 'demo', level: process.env.LOG_LEVEL ?? 'warn' });
installUnhandledRejectionLogging(logger);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'home-lan-bridge-demo-'));
const speed = Number(process.env.DEMO_SPEED ?? 30) > 0 ? Number(process.env.DEMO_SPEED ?? 30) : 30;
// The demo clock: today 09:30 running `speed` times real time (DEMO_SPEED=1: real time, from now).
// The energy service runs on it too, so charts, ages and estimates agree with the clock the
// dashboard shows (its "demo clock" badge reads GET /api/clock).
const simStart = new Date();
if (speed !== 1) simStart.setHours(9, 30, 0, 0);
const demoClock = createDemoClock({ start: simStart.getTime(), speed });
const simulatedNow = () => demoClock.now();
const realPollMs = Number(process.env.POLL_INTERVAL_MS ?? 2000) || 2000;
const pollIntervalMs = Math.min(600_000, Math.max(1000, realPollMs * speed));

// `npm run demo -- --gateway=silent,strict`: absent unit ids never answer, reserved addresses answer 0x02.
const gatewayFlag = process.argv.find((a) => a.startsWith('--gateway='))?.slice('--gateway='.length) ?? process.env.DEMO_GATEWAY;
const gatewayMode = parseSimulatorMode(gatewayFlag);
// A past: a week of history from the same plant model, written before the service starts; the
// simulator then serves that plant, carrying on from where the week ended.
fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
// The demo's day is overcast from its start (energy/demo/control.ts): the battery is not filled by
// the sun alone, so the price plan has something to buy in the cheap hours.
const sky = demoSky(simStart.getTime());
const past = seedDemoHistory({ dataDir, until: simStart.getTime(), days: 7, stepMs: pollIntervalMs, logger, live: simulatedNow, plant: { skyClear: sky } });
const gateway = await startGatewaySimulator({ firmware: 'V2.9', now: simulatedNow, plantModel: past.plant, ...gatewayMode });
// Tariff, weather (a local fake of Open-Meteo) and two alerts that fire and clear within minutes.
// Its irradiance forecast follows the plant model's day (this computer's local hours) on the demo clock.
const localSun = (t: number) => {
  const d = new Date(t);
  const h = d.getHours() + d.getMinutes() / 60;
  return h <= 6 || h >= 18 ? 0 : Math.round(800 * sky(t) * Math.sin((Math.PI * (h - 6)) / 12));
};
const weather = await startFakeWeather({ now: simulatedNow, irradiance: localSun });
// Live prices from a local Amber simulator on the demo clock and this computer's wall clock (as the
// plant's sun): cheap 11:00–16:00 (below zero 11:00–13:00), the evening peak 16:00–21:00 with a spike
// 18:00–18:30 (main/energy/prices/simulated-day.ts).
const amber = await startAmberSimulator({ now: simulatedNow, intervalMinutes: 30, timeZone: systemTimeZone() });
const prices = { source: 'amber', amber: { token: amber.token, siteId: amber.siteId, baseUrl: amber.url } };
// HomeKit bridge published and advertised on loopback only (never the LAN).
const homekit = { enabled: true, bind: ['127.0.0.1'], port: Number(process.env.HOMEKIT_PORT ?? 51827), ...(process.env.HOMEKIT_PIN ? { pin: process.env.HOMEKIT_PIN } : {}) };
fs.writeFileSync(path.join(dataDir, 'energy', 'settings.json'), JSON.stringify({ ...demoInsightSettings({ gateway, weather, pollIntervalMs }), homekit, prices, ...demoControlSettings() }, null, 2));
const env = {
  ...process.env,
  GATEWAY_HOST: gateway.host,
  GATEWAY_PORT: String(gateway.port),
  POLL_INTERVAL_MS: String(pollIntervalMs),
};
// Discovery in the demo scans 127.0.0.0/24 for the simulator's port: never the real LAN.
const services = composeServices({
  dataDir,
  env,
  logger,
  host: '127.0.0.1',
  recordings: false,
  clock: demoClock,
  discovery: { interfaces: () => loopbackInterfaces(gateway.host), discoveryPort: gateway.port, discoveryIncludeInternal: true },
});

let recordings: Awaited<ReturnType<typeof startRecordingsDemo>> | null = null;
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 5000).unref();
  process.stdout.write('\nStopping the demo…\n');
  const recorded = recordings?.recorded() ?? 0;
  await recordings?.stop();
  await services.stop();
  await gateway.close();
  await weather.close();
  await amber.close();
  // Ctrl+C says what it took away: the services and simulators, and the data folder with what was in it.
  // Stopped while starting (before the recordings side was up), it names only what had started.
  const energyPort = services.energy.url ? new URL(services.energy.url).port : null;
  const stopped = recordings
    ? `both services (ports ${energyPort} and ${new URL(recordings.url).port} are free) and the simulated gateway, weather service, Amber price service, recording box${recorded ? ` (it recorded ${recorded} new episode${recorded === 1 ? '' : 's'} while the demo ran)` : ''}, media server and box cloud`
    : `${energyPort ? `the energy service (port ${energyPort} is free; the recordings service had not finished starting)` : 'the demo while its services were starting (neither was listening yet)'} and the simulated gateway, weather service and Amber price service`;
  process.stdout.write(`Stopped ${stopped}.\n${removeDemoFolder(dataDir)}\n`);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

try {
  await services.start();
  // Battery control follows the price, writing to the simulated plant (the demo is the owner's own).
  const follow = await services.energy.app.inject(FOLLOW_THE_PRICE);
  if (follow.statusCode !== 200) logger.warn({ status: follow.statusCode, body: follow.body }, 'the demo could not turn on "Follow the price"');
  // Both services on the one demo clock: the recordings pages show the same time of day as the energy
  // pages (its runs, "last sync", the schedule); its downloads still time stalls and rates in real time.
  recordings = await startRecordingsDemo({ dataDir, port: Number(process.env.PORT ?? 8124), logger, owner: services.energy.owner, env: process.env, clock: demoClock });
} catch (err) {
  // One clear line (a taken port names the variable that moves it), and no data folder left behind.
  process.stderr.write(`demo could not start: ${err instanceof PortInUseError ? err.message : String((err as Error).stack ?? err)}\n`);
  await services.stop().catch(() => undefined);
  await gateway.close();
  await amber.close();
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
  Alerts             "Battery charging hard" fires in ~3 min (11:00: the price plan charges from the grid) and clears in ~5, when the battery is full; "Heavy load" fires in ~3 min, clears in ~9
  Weather            local fake of Open-Meteo at ${weather.forecastUrl}
  Live prices        Amber simulator at ${amber.url} (30-minute prices, local time: below zero 11:00–13:00, peak 16:00–21:00, spike 18:00–18:30)
  Battery control    follows the price on the simulated plant (an overcast day): charges from the grid 11:00–12:00, holds, covers the 17:30 peak; the dashboard's card shows the plan and what it saved
  HomeKit bridge     ${hk.running ? `127.0.0.1:${hk.port} (loopback only), setup code ${hk.pinCode}` : `not running: ${hk.error}`}
  Simulated gateway  modbus tcp://${gateway.host}:${gateway.port} (firmware V2.9, day runs ${speed}x${gatewayFlag ? `, mode ${gatewayFlag}` : ''})
  Demo clock         ${speed === 1 ? 'real time' : `starts at 09:30 and runs ${speed}x (a day in ${Math.round(1440 / speed)} min); both services show it`}
  A past             ${past.samples} history samples over the last 7 days on Trends, and earlier sync runs
Press Ctrl+C to stop.
`);
