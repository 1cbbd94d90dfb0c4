/**
 * Both services without Electron, for a home server (started by `headless.ts`). Configuration comes
 * from the environment (see README); state lives in DATA_DIR (default: the per-user application
 * data folder).
 */
import os from 'node:os';
import { createLogger } from './core/logger.js';
import { defaultDataDir } from './core/paths.js';
import { CannotListenError, lanUrls } from './core/startup.js';
import { composeServices } from './compose.js';
import { installUnhandledRejectionLogging } from './core/process-guards.js';

const logger = createLogger({ name: 'home-lan-bridge' });
const dataDir = defaultDataDir();
const host = process.env.BIND_HOST ?? '0.0.0.0';

installUnhandledRejectionLogging(logger);

const services = composeServices({ dataDir, env: process.env, logger, host });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  // A hard-exit timer so a stuck socket can never keep the process alive.
  setTimeout(() => process.exit(1), 10_000).unref();
  await services.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// Each service is tried: one that cannot start (its port taken, say) is reported in one line naming
// what to change, and the other keeps running. Only when nothing could start does the process exit.
const failures = await services.startEach();
for (const failure of failures) {
  if (failure.error instanceof CannotListenError) process.stderr.write(`${failure.error.message}\n`);
  else logger.fatal({ service: failure.service, err: failure.error }, `the ${failure.service === 'energy' ? 'energy bridge' : 'recording sync'} could not start`);
}
const energyUp = !failures.some((f) => f.service === 'energy');
const recordingsUp = services.recordings !== null && !failures.some((f) => f.service === 'recordings');
if (!energyUp && !recordingsUp) {
  await services.stop().catch(() => undefined);
  process.exit(1);
}
const interfaces = os.networkInterfaces();
const energyUrls = energyUp ? lanUrls(interfaces, host, Number(new URL(services.energy.url).port)) : [];
const recordingUrls = recordingsUp ? lanUrls(interfaces, host, services.recordings!.port) : [];
logger.info({ dataDir, energy: energyUrls, recordings: recordingUrls }, 'services started');
if (process.stdout.isTTY) {
  const lines: string[] = [];
  if (energyUrls.length) lines.push(`Energy bridge   ${energyUrls.join('  ')}`);
  if (recordingUrls.length) lines.push(`Recording sync  ${recordingUrls.join('  ')}`);
  process.stdout.write(`\nOpen from any browser on your network:\n  ${lines.join('\n  ')}\n\n`);
}
