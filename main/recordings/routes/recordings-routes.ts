import type { FastifyInstance } from 'fastify';
import type { ProgressEntry } from '../progress.js';
import type { RouteContext } from './context.js';

/**
 * A row whose download is live reads `downloading` (never the stored `partial` / `download in
 * progress`, which is only the truth if the process dies mid-transfer); its stored data is untouched.
 */
function downloadingRow(json: string, progress: ProgressEntry): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), status: 'downloading', error: null, progress });
}

export function registerRecordingRoutes(app: FastifyInstance, ctx: RouteContext): void {
  /** The last body built while nothing was in progress, reused until a row changes. */
  let idle: { version: number; body: string } | null = null;

  /** Every row with `progress` (the live entry or null) appended; stored data is not touched. */
  app.get('/api/recordings', async (_req, reply) => {
    void reply.type('application/json; charset=utf-8');
    const live = ctx.progress.snapshot();
    const version = ctx.recordings.version();
    if (live.size === 0 && idle?.version === version) return reply.send(idle.body);
    const rows = ctx.recordings.listJson();
    const parts = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const p = live.size ? live.get(row.id) : undefined;
      parts[i] = p?.phase === 'downloading' ? downloadingRow(row.json, p) : `${row.withProgress}${p ? JSON.stringify(p) : 'null'}}`;
    }
    const body = `{"recordings":[${parts.join(',')}]}`;
    idle = live.size === 0 ? { version, body } : null;
    return reply.send(body);
  });
}
