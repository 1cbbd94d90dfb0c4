import { accessFeature } from '../access-settings.js';
import { adRemovalFeature } from '../adcut/feature.js';
import { cloudFeature } from '../cloud/feature.js';
import { mediaServerFeature } from '../mediaserver/feature.js';
import { recordingsIntegrationsFeature } from '../integrations/feature.js';

/**
 * The recording sync's features, in order: the settings are theirs in this order (the API lists
 * them so), their after-download steps run in this order (ad removal first: later steps see the
 * row with its ad status) and they stop in reverse. Adding a feature is its folder plus one line
 * here (docs/features.md).
 */
export const recordingFeatures = [adRemovalFeature, mediaServerFeature, cloudFeature, accessFeature, recordingsIntegrationsFeature] as const;
