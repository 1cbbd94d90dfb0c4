import { z } from 'zod';
import { snapshotEntities, type BlockOf } from '../feature.js';

/** The modes as Home Assistant's select shows them, and the mode each stands for. */
export const MQTT_MODE_OPTIONS = {
  Automatic: 'automatic',
  'Charge now': 'charge',
  Hold: 'hold',
  'Discharge now': 'discharge',
  'Export limit': 'exportLimit',
  'Follow the price': 'schedule',
} as const;
export type MqttModeOption = keyof typeof MQTT_MODE_OPTIONS;
const MODES = ['automatic', 'charge', 'hold', 'discharge', 'exportLimit', 'schedule'] as const;

/** Additive (issue 44): battery control's state, for Home Assistant's select and numbers. */
export const controlBlock = {
  control: z
    .object({
      enabled: z.boolean(),
      dryRun: z.boolean(),
      /** Whether the owner lets broker messages change the mode (the stop button always works). */
      mqttControl: z.boolean(),
      mode: z.enum(MODES),
      /** The charge target while charging now, else null. */
      targetSoc: z.number().nullable(),
      /** The export cap while the export limit holds, else null. */
      exportLimitW: z.number().nullable(),
    })
    .meta({ description: 'Additive (issue 44): battery control, its mode and whether Home Assistant may change it; see docs/battery-control.md.' })
    .optional(),
};
export type ControlBlock = BlockOf<typeof controlBlock>;

const optionOf = (mode: string | undefined) => (Object.entries(MQTT_MODE_OPTIONS).find(([, m]) => m === mode)?.[0] ?? null);

/**
 * Battery control in Home Assistant (docs/battery-control.md "Home Assistant"): the mode as a
 * select, the charge target and the export cap as numbers, and the stop button (back to Automatic).
 * Their commands are the control feature's (`commands`, control/mqtt.ts).
 */
export const controlEntities = snapshotEntities<ControlBlock>([
  { key: 'control_mode', component: 'select', name: 'Battery control mode', icon: 'mdi:battery-sync', options: Object.keys(MQTT_MODE_OPTIONS), value: (s) => optionOf(s.control?.mode) },
  { key: 'control_target_soc', component: 'number', name: 'Charge now to', icon: 'mdi:battery-arrow-up', unit: '%', min: 1, max: 100, step: 1, value: (s) => s.control?.targetSoc ?? null },
  { key: 'control_export_limit', component: 'number', name: 'Export limit', icon: 'mdi:transmission-tower-export', unit: 'W', min: 0, max: 100_000, step: 100, value: (s) => s.control?.exportLimitW ?? null },
  { key: 'control_stop', component: 'button', name: 'Stop battery control', icon: 'mdi:stop-circle' },
]);
