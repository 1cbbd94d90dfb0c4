/**
 * `npm start`: both services without Electron, for a home server. Configuration comes from the
 * environment (see README); state lives in DATA_DIR (default: the per-user application data folder).
 */
import { createLogger } from './core/logger.js';
import { defaultDataDir } from './core/paths.js';
import { composeServices } from './compose.js';
import { installUnhandledRejectionLogging } from './recordings/index.js';

const logger = createLogger({ name: 'home-lan-bridge' });
const dataDir = defaultDataDir();

installUnhandledRejectionLogging(logger);

const services = composeServices({ dataDir, env: process.env, logger, host: process.env.BIND_HOST ?? '0.0.0.0' });

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
  logger.info({ dataDir, energy: services.energy.url, recordings: services.recordings?.url }, 'services started');
} catch (err) {
  logger.fatal({ err }, 'failed to start');
  await services.stop().catch(() => undefined);
  process.exit(1);
}
