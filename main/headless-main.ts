/**
 * Both services without Electron, for a home server (started by `headless.ts`). Configuration comes
 * from the environment (see README); state lives in DATA_DIR (default: the per-user application
 * data folder).
 */
import os from 'node:os';
import { createLogger } from './core/logger.js';
import { defaultDataDir } from './core/paths.js';
import { lanUrls, PortInUseError } from './core/startup.js';
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

try {
  await services.start();
  const interfaces = os.networkInterfaces();
  const energyUrls = lanUrls(interfaces, host, Number(new URL(services.energy.url).port));
  const recordingUrls = services.recordings ? lanUrls(interfaces, host, services.recordings.port) : [];
  logger.info({ dataDir, energy: energyUrls, recordings: recordingUrls }, 'services started');
  if (process.stdout.isTTY) {
    const lines = [`Energy bridge   ${energyUrls.join('  ')}`];
    if (recordingUrls.length) lines.push(`Recording sync  ${recordingUrls.join('  ')}`);
    process.stdout.write(`\nOpen from any browser on your network:\n  ${lines.join('\n  ')}\n\n`);
  }
} catch (err) {
  if (err instanceof PortInUseError) process.stderr.write(`${err.message}\n`);
  else logger.fatal({ err }, 'failed to start');
  await services.stop().catch(() => undefined);
  process.exit(1);
}
