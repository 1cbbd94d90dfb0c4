/**
 * Test fixture run as a child process: the recording service on the state folder named on the
 * command line (the parent's box simulator already saved in its settings), printing `URL <url>`,
 * then running until the parent kills it with SIGKILL mid-download.
 */
import { silentLogger } from '../../core/logger.js';
import { createRecordingService } from '../service.js';
import { testConfig } from './harness.js';

const dir = process.argv[2]!;
const service = createRecordingService(testConfig(dir, Number(process.argv[3] ?? 1)), { logger: silentLogger });
await service.start();
process.stdout.write(`URL ${service.url}\n`);
setInterval(() => undefined, 60_000);
