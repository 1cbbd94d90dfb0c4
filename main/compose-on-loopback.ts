import fs from 'node:fs';
import path from 'node:path';
import { composeServices } from './compose.js';
import { silentLogger } from './core/logger.js';
import { tempDir } from './recordings/testing/harness.js';

/**
 * Tests: both services composed as `npm start` does, on loopback ephemeral ports, in a fresh
 * folder holding the data folder (`data`) and, beside it, a media folder (`media`: a media root
 * never sits inside the app's data folder); the gateway is an address nothing answers on. `stop`
 * also removes the folder.
 */
export async function startComposedOnLoopback(prefix: string) {
  const dir = tempDir(prefix);
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(path.join(dir, 'media'));
  const services = composeServices({
    dataDir,
    env: { PORT: '0', MEDIA_ROOT: path.join(dir, 'media'), GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' },
    logger: silentLogger,
    host: '127.0.0.1',
    energyPort: 0,
  });
  await services.start();
  return {
    dir,
    dataDir,
    services,
    energy: services.energy,
    recordings: services.recordings!,
    async stop() {
      await services.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
