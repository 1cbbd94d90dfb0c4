import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isOwnerRequest } from '../../core/owner-only.js';
import type { SettingsStore } from '../../core/settings-store.js';
import { parseInput } from '../../core/validate.js';
import type { Security } from '../security/gate.js';
import { bindMqttPassword, MQTT_CLEARED_MESSAGE } from '../../integrations/mqtt/settings.js';
import { AMBER_CLEARED_MESSAGE, bindAmberToken } from '../prices/settings.js';
import { OWNER_ONLY_SETTINGS, refuseGuestChanges } from './owner-settings.js';
import { energySettingsSchema, mergeSettings, restartRequired, settingsSections, type EnergySettings } from './energy-settings.js';

type PublicSettings = Omit<EnergySettings, 'smartHome' | 'mqtt' | 'prices'> & {
  smartHome: { enabled: boolean; tokenSet: boolean };
  mqtt: Omit<EnergySettings['mqtt'], 'password'> & { passwordSet: boolean };
  prices: Omit<EnergySettings['prices'], 'amber'> & { amber: Omit<EnergySettings['prices']['amber'], 'token'>; amberTokenSet: boolean };
};

/**
 * Settings as GET /api/settings shows them: each section as its feature shows it (the smart-home
 * token only as `tokenSet`); with `blank` (a passcode is set and the request has no session) the
 * locked fields (gateway host, HomeKit PIN, alert webhooks, weather service addresses) are "".
 */
export function publicSettings(s: EnergySettings, blank: boolean): PublicSettings {
  const all = s as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const section of settingsSections) {
    const value = all[section.key];
    out[section.key] = section.publicView ? section.publicView(value, blank) : value;
  }
  return out as PublicSettings;
}

/** The published JSON Schema: each field carries `applies`; random first-start defaults are left out. */
export function settingsJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(energySettingsSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const scrub = (node: unknown, depth: number): void => {
    if (Array.isArray(node)) return node.forEach((n) => scrub(n, depth));
    if (typeof node !== 'object' || node === null) return;
    const obj = node as Record<string, unknown>;
    // Group defaults repeat the field defaults (and would publish the generated ones).
    if (obj.generated === true || (depth > 0 && obj.properties !== undefined && typeof obj.default === 'object')) delete obj.default;
    // Labels stay: the pages name each field by its schema label (one source for pages and refusals).
    for (const v of Object.values(obj)) scrub(v, depth + 1);
  };
  scrub(schema, 0);
  return schema;
}

/** Read-only fields of the GET body that a client may echo back; PUT ignores them. */
function withoutReadOnly(body: Record<string, unknown>): Record<string, unknown> {
  const { passcodeSet: _p, unlocked: _u, owner: _o, ownerOnly: _oo, ...rest } = body;
  for (const section of settingsSections) {
    const value = rest[section.key];
    if (!section.readOnly || typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const kept = { ...(value as Record<string, unknown>) };
    for (const field of section.readOnly) delete kept[field];
    rest[section.key] = kept;
  }
  return rest;
}

const objectBody = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' });

export interface SettingsRoutesDeps {
  settings: SettingsStore<EnergySettings>;
  security: Security;
  /** The environment seeds (first start, reset). */
  seeds: () => EnergySettings;
  /** Settings as the service started with them: restart-only fields are compared against these. */
  running: EnergySettings;
  /** Called after a successful write, to apply live fields. */
  onChange(prev: EnergySettings, next: EnergySettings): void;
  /** Refuses (throws a 400 naming the field) a change to how the bridge listens that cannot work. */
  checkListening?(prev: EnergySettings, next: EnergySettings): Promise<void>;
}

/** GET /api/settings, GET /api/settings/schema, PUT /api/settings, POST /api/settings/reset. */
export function registerSettingsRoutes(app: FastifyInstance, deps: SettingsRoutesDeps): void {
  const { settings, security } = deps;
  // Built on the first GET of the schema, not at start: converting every section's zod schema
  // costs start time a default start does not need (the settings page asks for it when opened).
  let jsonSchema: Record<string, unknown> | null = null;

  const isOwner = (req: FastifyRequest) => isOwnerRequest(req, security.hasSession);
  // `owner`: whether this caller may change the owner-only fields (`ownerOnly`): the pages show
  // them read-only otherwise.
  const view = (req: FastifyRequest) => {
    const unlocked = security.isUnlocked(req);
    return { ...publicSettings(settings.get(), !unlocked), passcodeSet: security.passcodes.isSet, unlocked, owner: isOwner(req), ownerOnly: OWNER_ONLY_SETTINGS };
  };

  const write = async (req: FastifyRequest, candidate: unknown, patch?: Record<string, unknown>) => {
    // Validate first: an invalid update throws a 400 naming the field and leaves the file untouched.
    const parsed = parseInput(energySettingsSchema, candidate, 'body');
    const prev = settings.get();
    // The port and host names are the owner's: a guest's write that changes one is refused whole.
    refuseGuestChanges(prev, parsed, isOwner(req));
    // A port or address that cannot work is refused the same way (it would stop the next start).
    await deps.checkListening?.(prev, parsed);
    // A secret is bound to its destination: moving the MQTT broker without a new password clears it.
    // The same for the Amber token: it is only sent to the Amber address it was given for.
    const bound = patch ? bindMqttPassword(prev.mqtt, patch.mqtt, parsed.mqtt) : { next: parsed.mqtt, cleared: [] };
    const amber = patch ? bindAmberToken(prev.prices, patch.prices, parsed.prices) : { next: parsed.prices, cleared: [] };
    const next = settings.replace({ ...parsed, mqtt: bound.next, prices: amber.next });
    deps.onChange(prev, next);
    const cleared = [...bound.cleared, ...amber.cleared];
    const message = [bound.cleared.length ? MQTT_CLEARED_MESSAGE : '', amber.cleared.length ? AMBER_CLEARED_MESSAGE : ''].filter(Boolean).join(' ');
    return { settings: view(req), restartRequired: restartRequired(deps.running, next), ...(cleared.length ? { cleared, message } : {}) };
  };

  app.get('/api/settings', async (req) => view(req));

  app.get('/api/settings/schema', async () => (jsonSchema ??= settingsJsonSchema()));

  app.put('/api/settings', { preHandler: security.requireSession }, async (req) => {
    const patch = withoutReadOnly(parseInput(objectBody, req.body, 'body'));
    return write(req, mergeSettings(settings.get(), patch), patch);
  });

  app.post('/api/settings/reset', { preHandler: security.requireSession }, async (req) => {
    // The HomeKit PIN survives a reset so that a printed or saved pairing code stays valid.
    const seeds = deps.seeds();
    return write(req, { ...seeds, homekit: { ...seeds.homekit, pin: settings.get().homekit.pin } });
  });
}
