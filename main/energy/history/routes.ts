import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalid } from '../../core/errors.js';
import { parseInput, presenceFlag } from '../../core/validate.js';
import { sendJson } from '../live/live-routes.js';
import { MAX_ROWS } from './downsample.js';
import type { History } from './index.js';
import { parseTime } from './sample.js';

/** Longest accepted `every`: a year, in seconds. */
const MAX_EVERY_SECONDS = 366 * 86_400;

const wholeNumber = (min: number, max: number, what: string) =>
  z.string().transform((v, ctx) => {
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be ${what} from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

const timeParam = z.string().transform((v, ctx) => {
  const t = parseTime(v);
  if (t === null) {
    ctx.addIssue({ code: 'custom', message: 'must be epoch milliseconds or an ISO 8601 timestamp' });
    return z.NEVER;
  }
  return t;
});

export const historyQuerySchema = z
  .object({
    order: z.enum(['asc', 'desc']).optional(),
    limit: wholeNumber(1, MAX_ROWS, 'an integer').optional(),
    since: timeParam.optional(),
    until: timeParam.optional(),
    every: wholeNumber(1, MAX_EVERY_SECONDS, 'a whole number of seconds').optional(),
    pretty: presenceFlag,
  });

export const exportQuerySchema = z
  .object({
    format: z.enum(['csv', 'json']).default('csv'),
    every: wholeNumber(1, MAX_EVERY_SECONDS, 'a whole number of seconds').optional(),
  });

const statsQuerySchema = z.object({ pretty: presenceFlag });

/**
 * GET /api/history, GET /api/history/stats, GET /api/history/export. Unknown parameter names are
 * ignored (browsers and proxies add cache busters such as `_=1700000000`); a bad value of a known
 * parameter is a 400 naming it.
 */
export function registerHistoryRoutes(app: FastifyInstance, history: History): void {
  app.get('/api/history', async (req, reply) => {
    const { pretty, ...q } = parseInput(historyQuerySchema, req.query, 'query');
    if (q.since !== undefined && q.until !== undefined && q.since > q.until) throw invalid('since', 'must not be after until');
    // Answered off this thread: a 7-day every=1 query must not hold up the poller.
    const result = await history.queryJson(q, pretty);
    if (result.widthSeconds !== undefined) reply.header('x-history-bucket-seconds', String(result.widthSeconds));
    return reply.type('application/json; charset=utf-8').send(result.body);
  });

  app.get('/api/history/stats', async (req, reply) => {
    const { pretty } = parseInput(statsQuerySchema, req.query, 'query');
    const imports = history.legacyImports();
    const failing = history.writeError();
    const writeError = failing ? { what: failing.what, message: failing.message, since: new Date(failing.since).toISOString(), lastAt: new Date(failing.lastAt).toISOString() } : null;
    return sendJson(reply, { ...history.stats(), ...(imports.length ? { legacyImport: imports } : {}), ...(writeError ? { writeError } : {}) }, pretty);
  });

  app.get('/api/history/export', async (req, reply) => {
    const { format, every } = parseInput(exportQuerySchema, req.query, 'query');
    const stream = history.exportOffThread(format, every);
    return reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${history.exportFileName(format, every)}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
}
