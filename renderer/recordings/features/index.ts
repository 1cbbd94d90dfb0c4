import { adRemovalPage } from './ad-removal/section.js';
import { cloudPage } from './cloud/section.js';
import { integrationsPage } from './integrations/section.js';
import { mediaServerPage } from './media-server/section.js';
import type { Capabilities } from '../types.js';
import type { RecordingsFeaturePage, RecordingsPageSection } from './page-section.js';
import { syncPage } from './sync/section.js';

/**
 * The recordings settings page's sections, by feature: the page-side mirror of the server's list
 * (main/recordings/features/index.ts), same names, same order; the page draws them in this order.
 * A section that `needs` a capability is drawn only when the service has that feature wired in.
 * A feature with nothing to show (access: the page has no field for allowed_hosts) needs no entry.
 * Adding one is its folder's `section.tsx` plus one line here (docs/features.md).
 */
export const recordingsFeaturePages: readonly RecordingsFeaturePage[] = [syncPage, adRemovalPage, mediaServerPage, cloudPage, integrationsPage];

/** Every section of the page, in the page's order. */
export const recordingsPageSections: readonly RecordingsPageSection[] = recordingsFeaturePages.flatMap((f) => f.sections);

/** The sections this service shows: those whose feature it has wired in (its capabilities). */
export function sectionsFor(caps: Capabilities | undefined): RecordingsPageSection[] {
  return recordingsPageSections.filter((s) => !s.needs || caps?.[s.needs] === true);
}
