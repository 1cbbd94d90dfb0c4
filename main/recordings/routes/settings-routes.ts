import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.js';

/** `GET /api/settings` (secrets masked, sources, `tz`, detector config) and `PATCH /api/settings`. */
export function registerSettingsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/api/settings', async () => ctx.settings.view());
  app.patch('/api/settings', async (req) => ctx.settings.patch(req.body, ctx.clock.now()));
}
