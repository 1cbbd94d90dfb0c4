import { alertsFeature } from './alerts/feature.js';
import { dailyFeature } from './daily/feature.js';
import { homekitFeature } from './homekit/feature.js';
import { smartHomeFeature } from './smarthome/feature.js';
import { costFeature } from './cost/feature.js';
import { weatherFeature } from './weather/feature.js';
import { outlookFeature } from './outlook/feature.js';
import { savingsFeature } from './savings/feature.js';
import { metricsModule } from './metrics/feature.js';
import { mqttModule } from './mqtt/feature.js';
import { controlFeature } from './control/feature.js';
/**
 * The energy bridge's features, in order: the settings are their sections in this order (the
 * settings file, the API and the JSON Schema list them so), and the running features start in this
 * order and stop in reverse. Adding a feature is its folder plus one line here (docs/features.md).
 */
export const energyFeatures = [
  costFeature,
  alertsFeature,
  weatherFeature,
  dailyFeature,
  savingsFeature,
  outlookFeature,
  homekitFeature,
  smartHomeFeature,
  controlFeature,
  mqttModule,
  metricsModule,
] as const;
