import { pino, type Logger } from 'pino';

export type { Logger };

/** One logger for the process; `LOG_LEVEL` overrides. Tests pass `silent`. */
export function createLogger(opts: { name?: string; level?: string } = {}): Logger {
  const level = opts.level ?? process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');
  return pino({
    name: opts.name,
    level,
    redact: {
      paths: ['passcode', '*.passcode', 'pin', '*.pin', '*.passcodeHash', 'passcodeHash', 'token', '*.token', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  });
}

export const silentLogger: Logger = pino({ level: 'silent' });
