import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';

/** What `GET /api/clock` answers: the service's time and how fast it runs (the demo's day runs faster). */
export interface ClockView {
  /** The service's current time, epoch ms: every timestamp it serves is on this clock. */
  now: number;
  /** 1 for real time; the demo reports its speed-up (30 = a day in 48 minutes). */
  speed: number;
  /** True when the clock is not real time, so pages show a "demo clock" badge. */
  demo: boolean;
  /** The bridge's time zone (its setting): where its day starts and ends; the pages' clock shows it. */
  timeZone: string;
}

export function clockView(clock: Clock, timeZone: string): ClockView {
  const speed = clock.speed ?? 1;
  return { now: clock.now(), speed, demo: speed !== 1, timeZone };
}

/** GET /api/clock: pages read "now" from here so ranges and ages agree with the service's clock. */
export function registerClockRoute(app: FastifyInstance, clock: Clock, timeZone: () => string): void {
  app.get('/api/clock', async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    return clockView(clock, timeZone());
  });
}
