import type { SnapshotEntity, SnapshotGauge } from '../feature.js';

/** Joules in a kilowatt-hour: Prometheus wants base units (the gateway counts kWh). */
const JOULES_PER_KWH = 3_600_000;
const ratio = (percent: number | null | undefined) => (typeof percent === 'number' ? percent / 100 : null);
export const joules = (kwh: number | null | undefined) => (typeof kwh === 'number' ? kwh * JOULES_PER_KWH : null);

/**
 * The core's Home Assistant entities: the gateway's readings (`needsGateway`: unavailable while it
 * does not answer) and what the bridge works out itself (today's consumption, whether the gateway
 * answers). The features declare their own on their modules.
 */
export const coreEntities: readonly SnapshotEntity[] = [
  { key: 'battery_soc', component: 'sensor', needsGateway: true, name: 'Battery charge', unit: '%', deviceClass: 'battery', stateClass: 'measurement', value: (s) => s.battery.soc },
  { key: 'battery_soh', component: 'sensor', needsGateway: true, name: 'Battery health', unit: '%', deviceClass: 'battery', stateClass: 'measurement', diagnostic: true, value: (s) => s.battery.soh },
  { key: 'solar_power', component: 'sensor', needsGateway: true, name: 'Solar power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.solar },
  { key: 'home_power', component: 'sensor', needsGateway: true, name: 'Home power', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.home },
  { key: 'grid_power', component: 'sensor', needsGateway: true, name: 'Grid power (import positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.grid },
  { key: 'battery_power', component: 'sensor', needsGateway: true, name: 'Battery power (charging positive)', unit: 'W', deviceClass: 'power', stateClass: 'measurement', value: (s) => s.power.battery },
  { key: 'grid_direction', component: 'sensor', needsGateway: true, name: 'Grid direction', icon: 'mdi:transmission-tower', value: (s) => s.power.gridDirection },
  { key: 'battery_direction', component: 'sensor', needsGateway: true, name: 'Battery direction', icon: 'mdi:battery-sync', value: (s) => s.power.batteryDirection },
  { key: 'consumed_today', component: 'sensor', name: 'Home energy today', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.consumedToday },
  { key: 'lifetime_pv', component: 'sensor', needsGateway: true, name: 'Solar energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.pv },
  { key: 'lifetime_consumed', component: 'sensor', needsGateway: true, name: 'Home energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.consumed },
  { key: 'lifetime_grid_import', component: 'sensor', needsGateway: true, name: 'Grid import (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridImport },
  { key: 'lifetime_grid_export', component: 'sensor', needsGateway: true, name: 'Grid export (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.gridExport },
  { key: 'lifetime_battery_charge', component: 'sensor', needsGateway: true, name: 'Battery charge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryCharge },
  { key: 'lifetime_battery_discharge', component: 'sensor', needsGateway: true, name: 'Battery discharge energy (lifetime)', unit: 'kWh', deviceClass: 'energy', stateClass: 'total_increasing', value: (s) => s.energy.lifetime.batteryDischarge },
  { key: 'gateway_connected', component: 'binary_sensor', name: 'Gateway connected', deviceClass: 'connectivity', diagnostic: true, value: (s) => s.connected },
];

/** The core's gauges (the gateway's readings, the history's size); the lifetime counters are the metrics feature's own. */
export const coreGauges: readonly SnapshotGauge[] = [
  { name: 'gateway_connected', help: 'Whether the gateway answered the last poll (1) or not (0).', value: (s) => (s.connected ? 1 : 0) },
  { name: 'battery_soc_ratio', help: 'Battery state of charge, 0 to 1.', value: (s) => ratio(s.battery.soc) },
  { name: 'battery_soh_ratio', help: 'Battery state of health, 0 to 1.', value: (s) => ratio(s.battery.soh) },
  { name: 'solar_power_watts', help: 'Solar power, W.', value: (s) => s.power.solar },
  { name: 'home_power_watts', help: 'Home consumption, W.', value: (s) => s.power.home },
  { name: 'grid_power_watts', help: 'Grid power, W (positive: importing).', value: (s) => s.power.grid },
  { name: 'battery_power_watts', help: 'Battery power, W (positive: charging).', value: (s) => s.power.battery },
  { name: 'home_energy_today_joules', help: 'Home consumption since local midnight, J (a gauge: it starts again at 0 each day).', value: (s) => joules(s.energy.consumedToday) },
  { name: 'history_samples', help: 'Samples kept in the history database.', value: (s) => s.history?.count },
];
