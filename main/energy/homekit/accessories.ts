import { Accessory, Characteristic, HapStatusError, Service, uuid, type CharacteristicValue, type WithUUID } from 'hap-nodejs';
import { batteryReading, POWER_FLOWS, type PowerFlow } from '../live/device-readings.js';
import type { LiveState } from '../live-state.js';
import type { SharedLiveFields } from '../live/shared-fields.js';
import type { AlertSensor, FeatureSettings } from '../feature.js';
import type { homekitSection } from './settings.js';

/** What the bridge reads: its own section and the core. */
export type HomekitSettings = FeatureSettings<typeof homekitSection>;

/** HomeKit's light sensor (the one numeric sensor the Home app shows for any value) has this floor. */
export const LIGHT_FLOOR = 0.0001;
const LIGHT_MAX = 100_000;

/** HAPStatus.SERVICE_COMMUNICATION_FAILURE (a const enum, so spelled out): the Home app shows "No Response". */
const SERVICE_COMMUNICATION_FAILURE = -70402;

const MANUFACTURER = 'Home LAN Bridge';

export interface Readings {
  state: () => LiveState;
  settings: () => HomekitSettings;
}

/** A value that is not known (never read, or the register is unsupported) answers "no response", never 0. */
function known<T>(v: T | null): T {
  if (v === null) throw new HapStatusError(SERVICE_COMMUNICATION_FAILURE);
  return v;
}

const fault = (s: LiveState) => (s.connected ? Characteristic.StatusFault.NO_FAULT : Characteristic.StatusFault.GENERAL_FAULT);

function describe(acc: Accessory, model: string, serial: string): void {
  acc
    .getService(Service.AccessoryInformation)
    ?.setCharacteristic(Characteristic.Manufacturer, MANUFACTURER)
    .setCharacteristic(Characteristic.Model, model)
    .setCharacteristic(Characteristic.SerialNumber, serial);
}

/** One accessory plus how to push the current live state into it (every poll). */
export interface BridgedAccessory {
  readonly accessory: Accessory;
  update(state: LiveState): void;
}

function set(service: Service, characteristic: WithUUID<new () => Characteristic>, value: CharacteristicValue | null): void {
  if (value !== null) service.getCharacteristic(characteristic).updateValue(value);
}

/** The battery: Battery service (level, charging state, low flag) plus a percent sensor the Home app shows as a tile. */
export function batteryAccessory(id: string, r: Readings): BridgedAccessory {
  const acc = new Accessory('Home battery', uuid.generate(`${id}:battery`));
  describe(acc, 'Battery', `${id}-battery`);
  const reading = () => batteryReading(r.state(), r.settings().battery.reserveSoc);
  const battery = acc.addService(Service.Battery, 'Home battery');
  const chargingState = (charging: boolean | null) =>
    charging === null ? null : charging ? Characteristic.ChargingState.CHARGING : Characteristic.ChargingState.NOT_CHARGING;
  const lowState = (low: boolean | null) => (low === null ? null : low ? Characteristic.StatusLowBattery.BATTERY_LEVEL_LOW : Characteristic.StatusLowBattery.BATTERY_LEVEL_NORMAL);
  battery.getCharacteristic(Characteristic.BatteryLevel).onGet(() => known(reading().level));
  battery.getCharacteristic(Characteristic.ChargingState).onGet(() => known(chargingState(reading().charging)));
  battery.getCharacteristic(Characteristic.StatusLowBattery).onGet(() => known(lowState(reading().low)));

  const percent = acc.addService(Service.HumiditySensor, 'Battery level', 'percent');
  percent.getCharacteristic(Characteristic.CurrentRelativeHumidity).onGet(() => known(reading().level));
  percent.getCharacteristic(Characteristic.StatusFault).onGet(() => fault(r.state()));
  percent.getCharacteristic(Characteristic.StatusLowBattery).onGet(() => known(lowState(reading().low)));

  return {
    accessory: acc,
    update(state) {
      const b = batteryReading(state, r.settings().battery.reserveSoc);
      set(battery, Characteristic.BatteryLevel, b.level);
      set(battery, Characteristic.ChargingState, chargingState(b.charging));
      set(battery, Characteristic.StatusLowBattery, lowState(b.low));
      set(percent, Characteristic.CurrentRelativeHumidity, b.level);
      set(percent, Characteristic.StatusLowBattery, lowState(b.low));
      set(percent, Characteristic.StatusFault, fault(state));
    },
  };
}

/** Watts as a light level (the Home app shows the number); 0 W is HomeKit's floor, not a fault. */
export const wattsAsLight = (w: number) => Math.min(LIGHT_MAX, Math.max(LIGHT_FLOOR, w));

/** One power flow (solar, home, grid import/export, battery charge/discharge) as a sensor carrying watts. */
export function powerAccessory(id: string, flow: PowerFlow, r: Readings): BridgedAccessory {
  const acc = new Accessory(flow.name, uuid.generate(`${id}:power:${flow.id}`));
  describe(acc, 'Power flow (W)', `${id}-${flow.id}`);
  const sensor = acc.addService(Service.LightSensor, flow.name);
  const level = (s: LiveState) => {
    const w = flow.watts(s);
    return w === null ? null : wattsAsLight(w);
  };
  sensor.getCharacteristic(Characteristic.CurrentAmbientLightLevel).onGet(() => known(level(r.state())));
  sensor.getCharacteristic(Characteristic.StatusFault).onGet(() => fault(r.state()));
  return {
    accessory: acc,
    update(state) {
      set(sensor, Characteristic.CurrentAmbientLightLevel, level(state));
      set(sensor, Characteristic.StatusFault, fault(state));
    },
  };
}

export function powerAccessories(id: string, r: Readings): BridgedAccessory[] {
  return POWER_FLOWS.map((f) => powerAccessory(id, f, r));
}

/** One alert rule as a contact sensor: open while the alert is active. */
export function alertAccessory(id: string, rule: AlertSensor, r: Readings): BridgedAccessory {
  const acc = new Accessory(rule.name, uuid.generate(`${id}:alert:${rule.id}`));
  describe(acc, 'Alert', `${id}-alert-${rule.id}`);
  const sensor = acc.addService(Service.ContactSensor, rule.name);
  // Open while the alerts list the rule among the ones firing now (shared-fields.ts).
  const contact = (s: LiveState & Readonly<Pick<SharedLiveFields, 'alerts'>>) =>
    (s.alerts ?? []).some((a) => a.id === rule.id) ? Characteristic.ContactSensorState.CONTACT_NOT_DETECTED : Characteristic.ContactSensorState.CONTACT_DETECTED;
  sensor.getCharacteristic(Characteristic.ContactSensorState).onGet(() => contact(r.state()));
  sensor.getCharacteristic(Characteristic.StatusFault).onGet(() => fault(r.state()));
  return {
    accessory: acc,
    update(state) {
      set(sensor, Characteristic.ContactSensorState, contact(state));
      set(sensor, Characteristic.StatusFault, fault(state));
    },
  };
}
