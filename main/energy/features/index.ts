import { alertsFeature } from '../alerts/feature.js';
import { batteryFeature } from '../battery/settings.js';
import { dailyFeature } from '../daily/feature.js';
import { gatewayFeature, namesFeature } from '../gateway/settings.js';
import { generalFeature } from '../general/settings.js';
import { historyFeature } from '../history/settings.js';
import { homekitFeature } from '../homekit/feature.js';
import { smartHomeFeature } from '../smarthome/feature.js';
import { tariffFeature } from '../tariff/feature.js';
import { weatherFeature } from '../weather/feature.js';
import { outlookFeature } from './outlook/feature.js';
import { savingsFeature } from './savings/feature.js';
import { metricsModule } from '../../integrations/metrics/energy-metrics.js';
import { mqttModule } from '../../integrations/mqtt/energy-feature.js';

/**
 * The energy bridge's features, in order: the settings are their sections in this order (the
 * settings file, the API and the JSON Schema list them so), and the running features start in this
 * order and stop in reverse. Adding a feature is its folder plus one line here (docs/features.md).
 */
export const energyFeatures = [
  generalFeature,
  gatewayFeature,
  historyFeature,
  batteryFeature,
  namesFeature,
  tariffFeature,
  alertsFeature,
  weatherFeature,
  dailyFeature,
  savingsFeature,
  outlookFeature,
  homekitFeature,
  smartHomeFeature,
  mqttModule,
  metricsModule,
] as const;
