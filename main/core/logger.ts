import { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export type LogFormat = 'pretty' | 'json';

export interface LoggerOptions {
  name?: string;
  level?: string;
  /** `pretty` (one readable line per entry) or `json` (one JSON object per line, for log collectors). */
  format?: LogFormat;
  /** Where lines go (default stdout). */
  destination?: NodeJS.WritableStream;
}

/**
 * One logger for the process; `LOG_LEVEL` overrides the level. The format is `LOG_FORMAT` when set,
 * else readable lines on a terminal and JSON when the output is a pipe or file. Tests pass `silent`.
 */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');
  const out = opts.destination ?? process.stdout;
  const format = opts.format ?? logFormatFromEnv(process.env.LOG_FORMAT, Boolean((out as { isTTY?: boolean }).isTTY));
  const destination: DestinationStream = format === 'pretty' ? prettyStream(out) : (out as DestinationStream);
  return pino(
    {
      name: opts.name,
      level,
      redact: {
        paths: ['passcode', '*.passcode', 'pin', '*.pin', '*.passcodeHash', 'passcodeHash', 'token', '*.token', 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export function logFormatFromEnv(value: string | undefined, isTty: boolean): LogFormat {
  if (value === 'json' || value === 'pretty') return value;
  return isTty ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'service', 'component', 'v']);

/** Turns one pino JSON line into `12:04:05 INFO  energy  gateway connected host=… port=502`. */
export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : '';
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const where = [entry.service, entry.component].filter((v) => typeof v === 'string').join('/') || (typeof entry.name === 'string' ? entry.name : '');
  const fields: string[] = [];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (OMIT.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object') {
      const err = value as { message?: string; stack?: string };
      fields.push(`err=${JSON.stringify(err.message ?? '')}`);
      if (err.stack) stack = `\n    ${err.stack.split('\n').slice(1, 6).join('\n    ').trim()}`;
      continue;
    }
    fields.push(`${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  }
  return [time, level, where ? `${where.padEnd(10)}` : '', String(entry.msg ?? ''), ...fields].filter(Boolean).join(' ') + stack;
}

function prettyStream(out: NodeJS.WritableStream): DestinationStream {
  let pending = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      pending += chunk.toString('utf8');
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line) out.write(formatLogLine(line) + '\n');
      }
      done();
    },
  });
  return stream as unknown as DestinationStream;
}

export const silentLogger: Logger = pino({ level: 'silent' });
