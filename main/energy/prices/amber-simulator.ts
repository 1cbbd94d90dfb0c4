import { AMBER_DAY, AMBER_ZONE, blockAt } from './simulated-day.js';
import { startSimServer, type SimFailure, type SimRequest } from './sim-server.js';

/**
 * A local stand-in for Amber Electric's public API (https://api.amber.com.au/v1), for tests and
 * `npm run demo`, speaking the shapes of Amber's published OpenAPI file (github.com/amberelectric/
 * public-api, "Amber Electric Public API" 2.0): Bearer token auth; `GET /v1/sites` lists the
 * account's sites (`id`, `nmi`, `channels` [{identifier, type general|feedIn|controlledLoad,
 * tariff}], `network`, `status` pending|active|closed, `activeFrom`, `intervalLength`);
 * `GET /v1/sites/{siteId}/prices/current?previous=&next=&resolution=` gives the current interval and
 * `previous` settled / `next` forecast ones, one object per channel: `type` ActualInterval |
 * CurrentInterval | ForecastInterval, `duration` (minutes), `spotPerKwh`, `perKwh` (c/kWh; a
 * feedIn price below zero pays the household), `date`, `nemTime` (interval end in NEM time,
 * UTC+10), `startTime` (one second after the start, as Amber writes it), `endTime`, `renewables`,
 * `channelType`, `spikeStatus` none|potential|spike, `descriptor`, `estimate` (Current and Forecast).
 *
 * The prices are the one simulated day (simulated-day.ts) on the injected clock. The current
 * interval is an `estimate` for its first half; `estimateOffsetCents` (default 0) is added to its
 * general price while it is.
 */
export interface AmberSimulator {
  /** Base URL as the settings take it (…/v1). */
  readonly url: string;
  readonly token: string;
  readonly siteId: string;
  readonly requests: SimRequest[];
  fail(mode: SimFailure | null): void;
  close(): Promise<void>;
}

export interface AmberSimulatorOptions {
  now: () => number;
  token?: string;
  siteId?: string;
  /** The site's interval length, minutes (Amber: 5 or 30). */
  intervalMinutes?: 5 | 30;
  estimateOffsetCents?: number;
  host?: string;
  /** The zone whose wall clock the simulated day follows (default Sydney, Amber's own); the demo passes the machine's, so its prices, sun and clock share one day. */
  timeZone?: string;
}

/** Amber's largest `next` / `previous` (a 400 beyond). */
const MAX_COUNT = 2048;

const DESCRIPTORS = [
  [0, 'negative'],
  [10, 'veryLow'],
  [20, 'low'],
  [35, 'neutral'],
  [100, 'high'],
] as const;

function descriptorOf(cents: number): string {
  for (const [below, word] of DESCRIPTORS) if (cents < below) return word;
  return 'spike';
}

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
/** NEM time is UTC+10 all year. */
const nem = (t: number) => new Date(t + 10 * 3_600_000).toISOString().slice(0, 19) + '+10:00';

export async function startAmberSimulator(opts: AmberSimulatorOptions): Promise<AmberSimulator> {
  const token = opts.token ?? 'psk_simulated_amber_token';
  const siteId = opts.siteId ?? '01J0SIMULATEDSITE0000000001';
  const minutes = opts.intervalMinutes ?? 5;
  const sites = [
    {
      id: siteId,
      nmi: '4102000001',
      channels: [
        { identifier: 'E1', type: 'general', tariff: 'EA116' },
        { identifier: 'E2', type: 'controlledLoad', tariff: 'EA030' },
        { identifier: 'B1', type: 'feedIn', tariff: 'EA116' },
      ],
      network: 'Ausgrid',
      status: 'active',
      activeFrom: '2024-03-01',
      intervalLength: minutes,
    },
    { id: '01J0SIMULATEDSITE0000000002', nmi: '4102000002', channels: [{ identifier: 'E1', type: 'general', tariff: 'EA010' }], network: 'Ausgrid', status: 'closed', activeFrom: '2021-01-01', closedOn: '2024-02-29', intervalLength: 30 },
  ];

  const interval = (start: number, dur: number, channel: 'general' | 'feedIn' | 'controlledLoad', type: string, estimate: boolean) => {
    const blk = blockAt(AMBER_DAY, opts.timeZone ?? AMBER_ZONE, start);
    const general = blk.a + (type === 'CurrentInterval' && estimate ? (opts.estimateOffsetCents ?? 0) : 0);
    const perKwh = channel === 'general' ? general : channel === 'controlledLoad' ? Math.round(general * 80) / 100 : blk.b;
    const spikeStatus = blk.a >= 100 ? 'spike' : AMBER_DAY.some((b) => b.a >= 100 && b.from === blk.from + 30) ? 'potential' : 'none';
    const end = start + dur * 60_000;
    return {
      type,
      duration: dur,
      spotPerKwh: Math.round(blk.a * 0.6 * 100) / 100,
      perKwh,
      date: nem(start).slice(0, 10),
      nemTime: nem(end),
      startTime: iso(start + 1000),
      endTime: iso(end),
      renewables: 42,
      channelType: channel,
      tariffInformation: { period: blk.a >= 40 ? 'peak' : 'offPeak' },
      spikeStatus,
      descriptor: descriptorOf(channel === 'feedIn' ? blk.a : general),
      ...(type === 'ActualInterval' ? {} : { estimate }),
    };
  };

  const server = await startSimServer((req) => {
    if (req.authorization !== `Bearer ${token}`) return { status: 401, body: { message: 'Unauthorized' } };
    if (req.path === '/v1/sites') return { status: 200, body: sites };
    const m = /^\/v1\/sites\/([^/]+)\/prices\/current$/.exec(req.path);
    if (!m) return { status: 404, body: { message: 'Not found' } };
    if (m[1] !== siteId) return { status: 404, body: { message: 'Site not found' } };
    const count = (name: string) => {
      const v = req.query.get(name);
      return v === null ? 0 : /^\d+$/.test(v) ? Number(v) : NaN;
    };
    const next = count('next');
    const previous = count('previous');
    const resolution = req.query.get('resolution') === null ? minutes : Number(req.query.get('resolution'));
    if (!(next <= MAX_COUNT) || !(previous <= MAX_COUNT)) return { status: 400, body: { message: `next and previous must be whole numbers up to ${MAX_COUNT}` } };
    if (resolution !== 5 && resolution !== 30) return { status: 400, body: { message: 'resolution must be 5 or 30' } };
    const dur = resolution * 60_000;
    const now = opts.now();
    const cur = Math.floor(now / dur) * dur;
    const estimate = now - cur < dur / 2;
    const out: unknown[] = [];
    for (let i = -previous; i <= next; i++) {
      const start = cur + i * dur;
      const type = i < 0 ? 'ActualInterval' : i === 0 ? 'CurrentInterval' : 'ForecastInterval';
      const est = i === 0 ? estimate : i > 0;
      for (const ch of ['general', 'controlledLoad', 'feedIn'] as const) out.push(interval(start, resolution, ch, type, est));
    }
    return { status: 200, body: out };
  }, opts.host);

  return { url: `${server.origin}/v1`, token, siteId, requests: server.requests, fail: server.fail, close: server.close };
}
