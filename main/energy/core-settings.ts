import type { z } from 'zod';
import { batterySection } from './battery/settings.js';
import { gatewaySection, namesSection, pollingSection } from './gateway/settings.js';
import { generalSection } from './general/settings.js';
import { historySection } from './history/settings.js';
import type { SettingsSection } from './settings-section.js';
import { pricesSection } from './prices/settings.js';
import { tariffSection } from './tariff/settings.js';

/**
 * The energy bridge's core settings: what the whole bridge is about and every feature may read.
 * Time zone, currency, units, port and host names (`general`), the gateway and its polling, how
 * long the history is kept, the battery's size and reserve, the names of strings and loads, and the
 * tariff (the prices every money figure uses: today's cost, daily totals, savings, the outlook's
 * peak windows) and where live prices come from (`prices`: fixed, Amber or Octopus). They are not features: a feature's context gives it these and its own sections.
 *
 * Each group keeps the name the settings page knows it by; the settings file and the API list the
 * core groups first, in this order, then the features' sections in list order (unchanged from
 * when these were settings-only features, so files written before load as they are).
 */
export const energyCoreGroups = [
  { name: 'general', settings: [generalSection] },
  { name: 'gateway', settings: [gatewaySection, pollingSection] },
  { name: 'history', settings: [historySection] },
  { name: 'battery', settings: [batterySection] },
  { name: 'names', settings: [namesSection] },
  { name: 'tariff', settings: [tariffSection] },
  { name: 'prices', settings: [pricesSection] },
] as const;

type CoreSection = (typeof energyCoreGroups)[number]['settings'][number];

/** The values of some sections, by key. */
export type SectionValues<Sec extends SettingsSection> = { [S in Sec as S['key']]: z.output<S['schema']> };

/** The core settings' values: what every feature may read. */
export type EnergyCore = SectionValues<CoreSection>;

export const coreSections: readonly SettingsSection[] = energyCoreGroups.flatMap((g): readonly SettingsSection[] => g.settings);
