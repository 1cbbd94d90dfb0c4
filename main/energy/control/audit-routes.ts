import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../core/validate.js';
import type { AuditLog } from './audit-log.js';

const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }).strict();

/** The name the downloaded audit log carries (the data folder's own file name). */
export const AUDIT_EXPORT_NAME = 'control-audit.jsonl';

/**
 * The audit log's routes (docs/battery-control.md): GET /api/control/audit (the newest entries,
 * newest first) and GET /api/control/audit/export, the whole log as a download, one JSON object a
 * line in time order, as the data folder keeps it (a torn line after a crash left out).
 */
export function registerAuditRoutes(app: FastifyInstance, audit: AuditLog): void {
  app.get('/api/control/audit', async (req) => ({ entries: audit.latest(parseInput(auditQuery, req.query, 'query').limit) }));
  app.get('/api/control/audit/export', async (_req, reply) => {
    const entries = audit.read();
    return reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="${AUDIT_EXPORT_NAME}"`)
      .header('cache-control', 'no-store')
      .send(entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  });
}
