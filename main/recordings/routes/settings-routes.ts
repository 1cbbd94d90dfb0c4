import type { FastifyInstance } from 'fastify';
import { OWNER_ONLY_SETTINGS, refuseGuestPatch, viewForGuest } from '../owner-settings.js';
import { parseInput } from '../../core/validate.js';
import { settingDefs, settingsPatchSchema, type SettingDef } from '../settings.js';
import { checkMediaRoot } from '../sync/media-root.js';
import type { RouteContext } from './context.js';

/**
 * The integrations wired into this service beyond the sync itself (re-scan, media-server discovery
 * and token, cloud test, delete from the box): the pages offer an action only when its flag is true.
 * Each is a capability a feature's own routes give.
 */
export function capabilities(ctx: RouteContext) {
  return {
    ad_scan: ctx.capabilities.has('ad_scan'),
    discover_media_server: ctx.capabilities.has('discover_media_server'),
    cloud_test: ctx.capabilities.has('cloud_test'),
    detect_media_server_token: ctx.capabilities.has('detect_media_server_token'),
    delete_from_box: ctx.capabilities.has('delete_from_box'),
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

/**
 * `GET /api/settings` (secrets masked, sources, `tz`, detector config; `owner`: whether this caller
 * may change the `owner_only` settings, and only the owner sees the detector file's path),
 * `GET /api/settings/schema` and `PATCH /api/settings`.
 */
export function registerSettingsRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const schema = settingsSchemaView();
  const answer = (owner: boolean, view: ReturnType<typeof ctx.settings.view>) => ({ ...(owner ? view : viewForGuest(view)), capabilities: capabilities(ctx), owner, owner_only: OWNER_ONLY_SETTINGS });
  app.get('/api/settings', async (req) => answer(ctx.isOwner(req), ctx.settings.view()));
  app.get('/api/settings/schema', async () => schema);
  app.patch('/api/settings', async (req) => {
    const owner = ctx.isOwner(req);
    // The PC's folders and host names are its owner's: a well-formed change by another device is
    // refused (403) before anything is looked at on disk.
    refuseGuestPatch(ctx.settings, parseInput(settingsPatchSchema, req.body ?? {}, 'body'), owner);
    // A new media root must be an existing, writable, non-system folder clear of the app's own folders (400 naming media_root).
    const body = req.body as Record<string, unknown> | null | undefined;
    if (body && typeof body === 'object' && typeof body.media_root === 'string') checkMediaRoot(body.media_root, ctx.appFolders);
    const { cleared, message, ...view } = ctx.settings.patch(req.body, ctx.clock.now(), { owner });
    return { ...answer(owner, view), cleared, ...(message ? { message } : {}) };
  });
}
