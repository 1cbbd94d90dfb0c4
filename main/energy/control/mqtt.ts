import type { Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { parseInput } from '../../core/validate.js';
import type { AuditLog } from './audit-log.js';
import type { BatteryController } from './controller.js';
import { modeRequest, type ModeRequest } from './modes.js';
import { MQTT_MODE_OPTIONS, type ControlBlock } from './published.js';
import type { ControlSettings } from './settings.js';

export interface MqttControlDeps {
  clock: Clock;
  settings: () => ControlSettings;
  controller: BatteryController;
  audit: AuditLog;
}

/** Refusals the controller records itself (its rails); any other refusal of a broker command is recorded here. */
const AUDITED_BY_CONTROLLER = new Set(['control_off', 'stale_reading', 'write_budget']);

/**
 * Battery control's commands from Home Assistant (the entities in published.ts). The owner rule:
 * a broker message changes nothing unless the owner allowed MQTT control in the settings
 * (`control.mqttControl`, off by default, the owner's to change); the stop button always works (it
 * only makes things safer). An accepted command takes the HTTP routes' path (the controller's
 * `setMode` / `kill`: control on, rails, dry run, audit with `by: 'mqtt'`); a refused one is
 * written to the audit log with the reason. Nothing is thrown back to the broker.
 */
export function mqttCommands(deps: MqttControlDeps): Record<string, (payload: string) => Promise<void>> {
  const refuse = (reason: string) => deps.audit.append({ at: new Date(deps.clock.now()).toISOString(), kind: 'refused', by: 'mqtt', reason });
  const run = async (what: string, req: () => unknown) => {
    if (!deps.settings().mqttControl) {
      refuse(`${what} from Home Assistant (MQTT) refused: the owner has not allowed MQTT control in the settings (Battery control → Allow control from Home Assistant).`);
      return;
    }
    try {
      await deps.controller.setMode(parseInput(modeRequest, req(), 'body'), 'mqtt');
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (!AUDITED_BY_CONTROLLER.has(err.code)) refuse(`${what} from Home Assistant (MQTT) refused: ${err.field ? `${err.field} ` : ''}${err.message}`);
    }
  };
  const number = (payload: string) => (/^-?\d+(\.\d+)?$/.test(payload) ? Number(payload) : payload);
  return {
    control_mode: (payload) =>
      run(`Mode "${payload}"`, () => {
        const mode = MQTT_MODE_OPTIONS[payload as keyof typeof MQTT_MODE_OPTIONS] ?? payload;
        return mode === 'charge' || mode === 'discharge' || mode === 'exportLimit' ? defaults(mode, deps.settings()) : { mode };
      }),
    control_target_soc: (payload) => run(`Charge to ${payload} %`, () => ({ ...defaults('charge', deps.settings()), targetSoc: number(payload) })),
    control_export_limit: (payload) => run(`Export limit ${payload} W`, () => ({ mode: 'exportLimit', limitW: number(payload) })),
    // The kill switch: always allowed, whatever the MQTT setting (back to Automatic only makes things safer).
    control_stop: async () => {
      try {
        await deps.controller.kill('mqtt');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        refuse(`Stop from Home Assistant (MQTT) failed: ${err.message}`);
      }
    },
  };
}

/** The mode a bare select choice starts: the owner's own figures (the price plan's target and power, the lowest charge). */
function defaults(mode: 'charge' | 'discharge' | 'exportLimit', s: ControlSettings): ModeRequest {
  if (mode === 'charge') return { mode, targetSoc: s.plan.targetSoc, powerW: Math.min(s.plan.chargePowerW, s.maxChargeW), source: 'grid', end: { kind: 'none' } };
  if (mode === 'discharge') return { mode, floorSoc: s.minSoc, powerW: s.maxDischargeW, end: { kind: 'none' } };
  return { mode, limitW: 0, end: { kind: 'none' } };
}

/** The snapshot's `control` block (what the select and numbers show). */
export function controlBlockOf(status: { enabled: boolean; dryRun: boolean; mode: ModeRequest }, s: ControlSettings): NonNullable<ControlBlock['control']> {
  const m = status.mode;
  return {
    enabled: status.enabled,
    dryRun: status.dryRun,
    mqttControl: s.mqttControl,
    mode: m.mode,
    targetSoc: m.mode === 'charge' ? m.targetSoc : null,
    exportLimitW: m.mode === 'exportLimit' ? m.limitW : null,
  };
}
