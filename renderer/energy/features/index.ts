import { alertsPage } from './alerts/section.js';
import { batteryPage } from './battery/section.js';
import { gatewayPage, namesPage } from './gateway/section.js';
import { generalPage } from './general/section.js';
import { historyPage } from './history/section.js';
import { homekitPage } from './homekit/section.js';
import type { EnergyFeaturePage, EnergyPageSection } from './page-section.js';
import { pricesPage } from './prices/section.js';
import { smartHomePage } from './smarthome/section.js';
import { tariffPage } from './tariff/section.js';
import { weatherPage } from './weather/section.js';

/**
 * The energy settings page's sections, by feature: the page-side mirror of the server's list
 * (`settingsOwners` in main/energy/settings/energy-settings.ts: the core groups, then main/energy/features.ts), same names, same order. The page draws every settings group the
 * server's schema lists, in the schema's order; an entry here gives its group an explainer,
 * purpose-built editors, save-bar tools or a whole component. A feature with none of these needs no
 * entry. Adding one is its folder's `section.tsx` plus one line here (docs/features.md).
 */
export const energyFeaturePages: readonly EnergyFeaturePage[] = [
  generalPage,
  gatewayPage,
  historyPage,
  batteryPage,
  namesPage,
  tariffPage,
  pricesPage,
  alertsPage,
  weatherPage,
  homekitPage,
  smartHomePage,
];

/** The page sections by settings group. */
export const energyPageSections: ReadonlyMap<string, EnergyPageSection> = new Map(energyFeaturePages.flatMap((f) => f.sections.map((s) => [s.key, s] as const)));
