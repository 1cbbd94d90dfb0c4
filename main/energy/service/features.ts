import type { EnergyFeature, FeatureContext } from '../feature.js';
import { energyFeatures } from '../features.js';
import { energyEntities, energyGauges } from '../published.js';
import type { EnergySettings } from '../settings/energy-settings.js';

/** What the service hands every feature; the values features share are added here. */
export type BaseFeatureContext = Omit<FeatureContext<EnergySettings>, 'alertSensors' | 'bridgeName' | 'irradiance' | 'producedDays' | 'entities' | 'gauges' | 'command'>;

/**
 * Makes the running features, in list order, with one context. What one feature offers another
 * goes through the service, never an import: values read from the composed settings (the alert
 * rules shown in the Home app, the bridge's name) and hooks of the features that offer them (the
 * irradiance forecast, the closed days' production).
 */
export function createEnergyFeatures(base: BaseFeatureContext): readonly EnergyFeature[] {
  let features: readonly EnergyFeature[] = [];
  const ctx: FeatureContext<EnergySettings> = {
    ...base,
    entities: energyEntities,
    gauges: energyGauges,
    alertSensors: () => base.settings().alerts.flatMap((a) => (a.homekit ? [{ id: a.id, name: a.name }] : [])),
    bridgeName: () => base.settings().homekit.bridgeName,
    irradiance: () => features.find((f) => f.irradiance)?.irradiance ?? null,
    producedDays: (from, to) => features.find((f) => f.producedDays)?.producedDays?.(from, to) ?? [],
    command: async (key, payload) => {
      await features.find((f) => f.commands?.[key])?.commands?.[key]?.(payload);
    },
  };
  features = energyFeatures.flatMap((f) => (f.create ? [f.create(ctx)] : []));
  return features;
}
