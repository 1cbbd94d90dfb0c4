import type { FastifyInstance } from 'fastify';
import { settingDefs, type SettingDef } from '../settings.js';
import { checkMediaRoot } from '../sync/media-root.js';
import type { RouteContext } from './context.js';

/**
 * The integrations wired into this service beyond the sync itself (re-scan, media-server discovery
 * and token, cloud test, delete from the box): the pages offer an action only when its flag is true.
 */
export function capabilities(ctx: RouteContext) {
  return {
    ad_scan: Boolean(ctx.seams.adScan),
    discover_media_server: Boolean(ctx.seams.discoverMediaServer),
    cloud_test: Boolean(ctx.seams.cloudTest),
    detect_media_server_token: Boolean(ctx.seams.detectMediaServerToken),
    delete_from_box: Boolean(ctx.seams.deleteFromBox),
  };
}

/**
 * What the settings page shows beside each field, in the order of the API: its label and hint in
 * plain words, whether it applies at once or after a restart, whether it is a secret, its default.
 */
export function settingsSchemaView() {
  return {
    fields: Object.fromEntries(
      Object.entries(settingDefs as Record<string, SettingDef>).map(([key, d]) => [key, { label: d.label, description: d.description, applies: d.applies, secret: d.secret === true, default: d.secret ? '' : d.default }]),
    ),
  };
}

/** `GET /api/settings` (secrets masked, sources, `tz`, detector config), `GET /api/settings/schema` and `PATCH /api/settings`. */
export function registerSettingsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const schema = settingsSchemaView();
  app.get('/api/settings', async () => ({ ...ctx.settings.view(), capabilities: capabilities(ctx) }));
  app.get('/api/settings/schema', async () => schema);
  app.patch('/api/settings', async (req) => {
    // A new media root must be an existing, writable, non-system folder clear of the app's own folders (400 naming media_root).
    const body = req.body as Record<string, unknown> | null | undefined;
    if (body && typeof body === 'object' && typeof body.media_root === 'string') checkMediaRoot(body.media_root, ctx.appFolders);
    return { ...ctx.settings.patch(req.body, ctx.clock.now()), capabilities: capabilities(ctx) };
  });
}
