import type { Snapshot } from '../../energy/snapshot-schema.js';
import type { EntityDef } from './discovery.js';

/** The energy bridge's entities in Home Assistant, and how each is read from the snapshot. */
export const energyEntities: ReadonlyArray<EntityDef & { value: (s: Snapshot) => unknown }> = [
  { key: 'battery_soc', component: 'sensor', name: 'Battery charge', unit: '%', deviceClass: 'battery', stateClass: 'measurement', value: (s) => s.battery.soc },
  { key: 'battery_soh', component: 'sensor', name: 'Battery health', unit: '%', deviceClass: 'battery', stateClass: 'measurement', diagnostic: true, value: (s) => s.battery.soh },
  { key: 'solar_power', component: 'sensor', name: 'Solar power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.solar },
  { key: 'home_power', component: 'sensor', name: 'Home power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.home },
  { key: 'grid_power', component: 'sensor', name: 'Grid power (import positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.grid },
  { key: 'battery_power', component: 'sensor', name: 'Battery power (charging positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.battery },
  { key: 'grid_direction', component: 'sensor', name: 'Grid direction', icon: 'mdi:transmission-tower', value: (s) => s.power.gridDirection },
  { key: 'battery_direction', component: 'sensor', name: 'Battery direction', icon: 'mdi:battery-sync', value: (s) => s.power.batteryDirection },
  { key: 'consumed_today', component: 'sensor', name: 'Home energy today', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.consumedToday },
  { key: 'cost_today', component: 'sensor', name: 'Net cost today', icon: 'mdi:cash', value: (s) => (s.tariff ? -s.tariff.today.net : null) },
  { key: 'lifetime_pv', component: 'sensor', name: 'Solar energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.pv },
  { key: 'lifetime_consumed', component: 'sensor', name: 'Home energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.consumed },
  { key: 'lifetime_grid_import', component: 'sensor', name: 'Grid import (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridImport },
  { key: 'lifetime_grid_export', component: 'sensor', name: 'Grid export (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridExport },
  { key: 'lifetime_battery_charge', component: 'sensor', name: 'Battery charge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryCharge },
  { key: 'lifetime_battery_discharge', component: 'sensor', name: 'Battery discharge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryDischarge },
  { key: 'outdoor_temperature', component: 'sensor', name: 'Outdoor temperature', unit: '°C', deviceClass: 'temperature', stateClass: 'measurement', value: (s) => s.weather?.outdoorTemp ?? null },
  { key: 'gateway_connected', component: 'binary_sensor', name: 'Gateway connected', deviceClass: 'connectivity', diagnostic: true, value: (s) => s.connected },
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
