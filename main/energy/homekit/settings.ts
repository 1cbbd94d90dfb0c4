import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { restart, settingsSection, withDefaults, type EnvSeeds } from '../settings-section.js';

/** The bridge's default port: one above homebridge's usual 51826. */
export const HOMEKIT_DEFAULT_PORT = 51827;

/** HomeKit rejects trivial setup codes. */
const TRIVIAL_PINS = new Set(['000-00-000', '111-11-111', '222-22-222', '333-33-333', '444-44-444', '555-55-555', '666-66-666', '777-77-777', '888-88-888', '999-99-999', '123-45-678', '876-54-321']);

export function randomHomekitPin(): string {
  for (;;) {
    const d = Array.from(randomBytes(8), (b) => String(b % 10)).join('');
    const pin = `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5, 8)}`;
    if (!TRIVIAL_PINS.has(pin)) return pin;
  }
}

export const homekitSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ ...restart, label: 'HomeKit', description: 'Show the battery and solar in the Apple Home app.' }),
    pin: z
      .string()
      .regex(/^\d{3}-\d{2}-\d{3}$/, 'must look like 123-45-678')
      .refine((p) => !TRIVIAL_PINS.has(p), 'is too simple; HomeKit rejects it')
      .default(randomHomekitPin)
      .meta({ ...restart, secret: 'locked', generated: true, label: 'HomeKit setup code', description: 'The code you type or scan when you add the bridge in the Home app. Made up for you on first start.' }),
    bridgeName: z.string().trim().min(1).max(64).default('Energy Bridge').meta({ ...restart, label: 'Bridge name', description: 'The name the Home app shows for this bridge.' }),
    port: z
      .number()
      .int()
      .min(1024)
      .max(65535)
      .default(HOMEKIT_DEFAULT_PORT)
      .meta({ ...restart, label: 'HomeKit port', description: 'The network port the Home app connects to. Leave it as it is unless another program uses it (homebridge usually takes 51826).' }),
    bind: z
      .array(z.string().trim().min(1).max(64).refine((v) => isIP(v) !== 0 || /^[A-Za-z0-9._-]+$/.test(v), 'must be an IP address or an interface name'))
      .max(8)
      .default([])
      .meta({ ...restart, label: 'Network connections', description: "Which of this computer's network connections the Home app can find the bridge on. Leave it empty for all of them." }),
  })
  .strict();

/** HOMEKIT_PORT, HOMEKIT_PIN and HOMEKIT_BIND seed the bridge (and any of them enables it). */
function homekitSeeds({ env, int, str }: EnvSeeds) {
  const port = int(env.HOMEKIT_PORT);
  const pin = str(env.HOMEKIT_PIN);
  const bind = str(env.HOMEKIT_BIND)?.split(',').map((b) => b.trim()).filter(Boolean);
  if (port === undefined && pin === undefined && bind === undefined) return {};
  if (env.HOMEKIT_PORT !== undefined && env.HOMEKIT_PORT.trim() !== '' && (port === undefined || port < 1024 || port > 65535)) throw new Error(`HOMEKIT_PORT: must be a port number 1024-65535, got "${env.HOMEKIT_PORT}"`);
  if (pin !== undefined) {
    const checked = homekitSettings.shape.pin.safeParse(pin);
    if (!checked.success) throw new Error(`HOMEKIT_PIN: ${checked.error.issues[0]!.message} (got "${pin.replace(/\d/g, '*')}")`);
  }
  return { enabled: true, ...(port !== undefined ? { port } : {}), ...(pin !== undefined ? { pin } : {}), ...(bind ? { bind } : {}) };
}

export const homekitSection = settingsSection({
  key: 'homekit',
  schema: withDefaults(homekitSettings),
  seed: homekitSeeds,
  publicView: (h, blank) => (blank ? { ...h, pin: '' } : h),
});
