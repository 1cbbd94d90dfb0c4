import { z } from 'zod';
import { httpUrl, live, settingsSection, withDefaults } from '../settings-section.js';

const code = z
  .string()
  .trim()
  .max(80)
  .regex(/^[A-Za-z0-9-]*$/, 'may hold only letters, digits and dashes')
  .default('');

export const pricesSettings = z
  .object({
    source: z
      .enum(['fixed', 'amber', 'octopus'])
      .default('fixed')
      .meta({ ...live, label: 'Price source', description: 'Where your electricity prices come from: the fixed rates set under Tariff, Amber Electric (prices every 5 or 30 minutes) or Octopus Energy Agile (half-hourly).' }),
    amber: z
      .object({
        token: z
          .string()
          .trim()
          .max(200)
          .default('')
          .meta({ ...live, secret: 'hidden', label: 'Amber API token', description: 'Made in the Amber app under Developers. It is only ever sent to the Amber service below; once saved it is never shown again.' }),
        siteId: z
          .string()
          .trim()
          .max(64)
          .regex(/^[A-Za-z0-9]*$/, 'may hold only letters and digits')
          .default('')
          .meta({ ...live, label: 'Site', description: 'Your Amber site (pick it from the list once the token is saved).' }),
        baseUrl: httpUrl.default('https://api.amber.com.au/v1').meta({ ...live, secret: 'locked', label: 'Amber service', description: 'The Amber API address. Leave it as it is.' }),
      })
      .strict()
      .default(() => ({ token: '', siteId: '', baseUrl: 'https://api.amber.com.au/v1' }))
      .meta({ ...live, label: 'Amber Electric' }),
    octopus: z
      .object({
        importProduct: code.meta({ ...live, label: 'Import product code', description: 'Such as AGILE-24-10-01.' }),
        importTariff: code.meta({ ...live, label: 'Import tariff code', description: 'Such as E-1R-AGILE-24-10-01-C (the last letter is your region).' }),
        exportProduct: code.meta({ ...live, label: 'Export product code', description: 'Such as AGILE-OUTGOING-19-05-13. Leave blank to use the feed-in rate under Tariff.' }),
        exportTariff: code.meta({ ...live, label: 'Export tariff code', description: 'Such as E-1R-AGILE-OUTGOING-19-05-13-C.' }),
        baseUrl: httpUrl.default('https://api.octopus.energy').meta({ ...live, secret: 'locked', label: 'Octopus service', description: 'The Octopus API address. Leave it as it is.' }),
      })
      .strict()
      .default(() => ({ importProduct: '', importTariff: '', exportProduct: '', exportTariff: '', baseUrl: 'https://api.octopus.energy' }))
      .meta({ ...live, label: 'Octopus Energy' }),
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.source === 'octopus' && (!p.octopus.importProduct || !p.octopus.importTariff))
      ctx.addIssue({ code: 'custom', path: ['octopus', p.octopus.importProduct ? 'importTariff' : 'importProduct'], message: 'is needed for Octopus prices' });
    if (!p.octopus.exportProduct !== !p.octopus.exportTariff) ctx.addIssue({ code: 'custom', path: ['octopus', p.octopus.exportProduct ? 'exportTariff' : 'exportProduct'], message: 'give both export codes, or neither' });
  });

export type PricesSettings = z.output<typeof pricesSettings>;

export const pricesSection = settingsSection({
  key: 'prices',
  schema: withDefaults(pricesSettings),
  seed: ({ env, str }) => {
    const amber = { ...(str(env.AMBER_API_TOKEN) ? { token: str(env.AMBER_API_TOKEN) } : {}), ...(str(env.AMBER_SITE_ID) ? { siteId: str(env.AMBER_SITE_ID) } : {}), ...(str(env.AMBER_API_URL) ? { baseUrl: str(env.AMBER_API_URL) } : {}) };
    const octopus = str(env.OCTOPUS_API_URL) ? { baseUrl: str(env.OCTOPUS_API_URL) } : {};
    const source = str(env.PRICE_SOURCE);
    return { ...(source === 'amber' || source === 'octopus' ? { source } : {}), ...(Object.keys(amber).length ? { amber } : {}), ...(Object.keys(octopus).length ? { octopus } : {}) };
  },
  // The token is never shown, only whether one is set; the service addresses are blank while locked.
  publicView: (p, blank) => {
    const { token, ...amber } = p.amber;
    return { ...p, amber: blank ? { ...amber, baseUrl: '' } : amber, octopus: blank ? { ...p.octopus, baseUrl: '' } : p.octopus, amberTokenSet: token !== '' };
  },
  readOnly: ['amberTokenSet'],
});

/**
 * Binds the Amber token to its service on a settings write: when the update moves the Amber address
 * (scheme, host or port) without giving a token, the stored one is cleared and named in `cleared`
 * (the token is only ever sent where it was given for; like the MQTT password).
 */
export function bindAmberToken(prev: PricesSettings, patch: unknown, next: PricesSettings): { next: PricesSettings; cleared: string[] } {
  const amberPatch = typeof patch === 'object' && patch !== null ? (patch as { amber?: unknown }).amber : undefined;
  const given = typeof amberPatch === 'object' && amberPatch !== null && 'token' in amberPatch;
  const origin = (u: string) => {
    try {
      return new URL(u).origin;
    } catch {
      return u;
    }
  };
  if (given || next.amber.token === '' || origin(prev.amber.baseUrl) === origin(next.amber.baseUrl)) return { next, cleared: [] };
  return { next: { ...next, amber: { ...next.amber, token: '' } }, cleared: ['prices.amber.token'] };
}

export const AMBER_CLEARED_MESSAGE = 'The Amber API token was cleared: a token is only sent to the service it was given for, and the Amber address changed. Enter it again for the new address.';
