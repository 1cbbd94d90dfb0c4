import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logger.js';

/** A logger writing JSON lines into memory, to count and read what the code logs. */
export function memoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', format: 'json', destination }), lines };
}
