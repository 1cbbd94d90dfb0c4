import { createAlertsFeature } from '../alerts/feature.js';
import { createDailyFeature } from '../daily/feature.js';
import { createHomekitFeature } from '../homekit/feature.js';
import { createSmartHomeFeature } from '../smarthome/feature.js';
import { createTariffFeature } from '../tariff/feature.js';
import { createWeatherFeature } from '../weather/feature.js';
import type { FeatureFactory } from './feature.js';
import { createOutlookFeature } from './outlook/feature.js';
import { createSavingsFeature } from './savings/feature.js';

/** The energy bridge's features, in order. Adding a feature is its folder plus one line here. */
export const energyFeatures: readonly FeatureFactory[] = [
  createTariffFeature,
  createAlertsFeature,
  createWeatherFeature,
  createDailyFeature,
  createSavingsFeature,
  createOutlookFeature,
  createHomekitFeature,
  createSmartHomeFeature,
];
