import type { Snapshot } from '../snapshot-schema.js';
import type { EntityDef } from '../../integrations/mqtt/discovery.js';

/**
 * The energy bridge's entities in Home Assistant, and how each is read from the snapshot. The
 * gateway's readings (`needsGateway`) are unavailable while it does not answer; what the bridge
 * works out itself (today's totals, cost, weather, alerts, whether the gateway answers) stays.
 */
export const energyEntities: ReadonlyArray<EntityDef & { value: (s: Snapshot) => unknown }> = [
  { key: 'battery_soc', component: 'sensor', needsGateway: true, name: 'Battery charge', unit: '%', deviceClass: 'battery', stateClass: 'measurement', value: (s) => s.battery.soc },
  { key: 'battery_soh', component: 'sensor', needsGateway: true, name: 'Battery health', unit: '%', deviceClass: 'battery', stateClass: 'measurement', diagnostic: true, value: (s) => s.battery.soh },
  { key: 'solar_power', component: 'sensor', needsGateway: true, name: 'Solar power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.solar },
  { key: 'home_power', component: 'sensor', needsGateway: true, name: 'Home power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.home },
  { key: 'grid_power', component: 'sensor', needsGateway: true, name: 'Grid power (import positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.grid },
  { key: 'battery_power', component: 'sensor', needsGateway: true, name: 'Battery power (charging positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.battery },
  { key: 'grid_direction', component: 'sensor', needsGateway: true, name: 'Grid direction', icon: 'mdi:transmission-tower', value: (s) => s.power.gridDirection },
  { key: 'battery_direction', component: 'sensor', needsGateway: true, name: 'Battery direction', icon: 'mdi:battery-sync', value: (s) => s.power.batteryDirection },
  { key: 'consumed_today', component: 'sensor', name: 'Home energy today', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.consumedToday },
  { key: 'cost_today', component: 'sensor', name: 'Net cost today', icon: 'mdi:cash', value: (s) => (s.tariff ? -s.tariff.today.net : null) },
  { key: 'lifetime_pv', component: 'sensor', needsGateway: true, name: 'Solar energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.pv },
  { key: 'lifetime_consumed', component: 'sensor', needsGateway: true, name: 'Home energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.consumed },
  { key: 'lifetime_grid_import', component: 'sensor', needsGateway: true, name: 'Grid import (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridImport },
  { key: 'lifetime_grid_export', component: 'sensor', needsGateway: true, name: 'Grid export (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridExport },
  { key: 'lifetime_battery_charge', component: 'sensor', needsGateway: true, name: 'Battery charge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryCharge },
  { key: 'lifetime_battery_discharge', component: 'sensor', needsGateway: true, name: 'Battery discharge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryDischarge },
  { key: 'outdoor_temperature', component: 'sensor', name: 'Outdoor temperature', unit: '°C', deviceClass: 'temperature', stateClass: 'measurement', value: (s) => s.weather?.outdoorTemp ?? null },
  { key: 'gateway_connected', component: 'binary_sensor', name: 'Gateway connected', deviceClass: 'connectivity', diagnostic: true, value: (s) => s.connected },
  // Live prices (Amber, Octopus), per kWh in the currency (the unit follows the settings: feature.ts);
  // null with the fixed rates. Not the gateway's: they stay while it does not answer.
  { key: 'import_price', component: 'sensor', name: 'Import price', icon: 'mdi:cash-plus', value: (s) => s.prices?.current?.importPerKwh ?? null },
  { key: 'feed_in_price', component: 'sensor', name: 'Feed-in price', icon: 'mdi:cash-minus', value: (s) => s.prices?.current?.feedInPerKwh ?? null },
  { key: 'price_spike', component: 'binary_sensor', name: 'Price spike', icon: 'mdi:flash-alert', value: (s) => (s.prices ? s.prices.current?.spike === true : null) },
  { key: 'active_alerts', component: 'sensor', name: 'Active alerts', icon: 'mdi:alert', stateClass: 'measurement', value: (s) => s.alerts.length },
];

/** The state JSON: one key per entity, plus the active alerts' names (bounded). */
export function energyState(s: Snapshot): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of energyEntities) out[e.key] = e.value(s);
  out.alert_names = s.alerts.slice(0, 24).map((a) => a.name.slice(0, 60));
  out.updated = s.lastUpdated;
  return out;
}
