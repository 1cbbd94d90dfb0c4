import { z } from 'zod';
import { batteryReading, POWER_FLOWS } from '../device-readings.js';
import type { LiveState } from '../live-state.js';
import type { FeatureSettings } from '../feature.js';
import type { smartHomeSection } from './settings.js';

/** What fulfillment reads: its own section and the core. */
export type SmartHomeSettings = FeatureSettings<typeof smartHomeSection>;

/**
 * The smart-home (Google Home cloud-to-cloud) fulfillment protocol: one request with a requestId
 * and one input whose intent is SYNC, QUERY, EXECUTE or DISCONNECT. Everything here is query-only:
 * the battery with the EnergyStorage trait and the power flows as numeric sensors.
 */
export const INTENTS = ['action.devices.SYNC', 'action.devices.QUERY', 'action.devices.EXECUTE', 'action.devices.DISCONNECT'] as const;

const deviceRef = z.object({ id: z.string().max(128) }).passthrough();

export const fulfillmentRequest = z.object({
  requestId: z.string().min(1).max(256),
  inputs: z
    .array(
      z
        .object({
          intent: z.string().max(128),
          payload: z
            .object({
              devices: z.array(deviceRef).max(100).optional(),
              commands: z
                .array(
                  z
                    .object({
                      devices: z.array(deviceRef).max(100),
                      execution: z.array(z.object({ command: z.string().max(128), params: z.record(z.string(), z.unknown()).optional() }).passthrough()).max(20),
                    })
                    .passthrough(),
                )
                .max(20)
                .optional(),
            })
            .passthrough()
            .optional(),
        })
        .passthrough(),
    )
    .min(1)
    .max(1),
});

export type FulfillmentRequest = z.output<typeof fulfillmentRequest>;

export const BATTERY_ID = 'battery';
export const powerDeviceId = (flowId: string) => `power-${flowId}`;

export interface IntentContext {
  state: LiveState;
  settings: SmartHomeSettings;
  agentUserId: string;
  /** The bridge's name in the home: the devices' room. */
  bridgeName: string;
}

function syncDevices(bridgeName: string) {
  const deviceInfo = { manufacturer: 'Home LAN Bridge', model: 'Energy bridge', swVersion: '1' };
  return [
    {
      id: BATTERY_ID,
      type: 'action.devices.types.CHARGER',
      traits: ['action.devices.traits.EnergyStorage'],
      name: { name: 'Home battery', defaultNames: ['Home battery'], nicknames: ['battery'] },
      roomHint: bridgeName,
      willReportState: false,
      attributes: { queryOnlyEnergyStorage: true, isRechargeable: true },
      deviceInfo,
    },
    ...POWER_FLOWS.map((f) => ({
      id: powerDeviceId(f.id),
      type: 'action.devices.types.SENSOR',
      traits: ['action.devices.traits.SensorState'],
      name: { name: f.name, defaultNames: [f.name] },
      willReportState: false,
      attributes: { sensorStatesSupported: [{ name: 'Power', numericCapabilities: { rawValueUnit: 'WATTS' } }], queryOnlySensorState: true },
      deviceInfo,
    })),
  ];
}

const descriptive = (level: number) => (level >= 98 ? 'FULL' : level >= 60 ? 'HIGH' : level >= 30 ? 'MEDIUM' : level >= 10 ? 'LOW' : 'CRITICALLY_LOW');

/** One device's QUERY answer; a disconnected gateway (or a value never read) is OFFLINE, never zero. */
function queryDevice(id: string, ctx: IntentContext): Record<string, unknown> {
  const { state } = ctx;
  if (id === BATTERY_ID) {
    const b = batteryReading(state, ctx.settings.battery.reserveSoc);
    if (!state.connected || b.level === null) return { online: false, status: 'OFFLINE' };
    const capacity = ctx.settings.battery.capacityKwh ?? b.capacityKwh;
    const remaining: Array<{ rawValue: number; unit: string }> = [{ rawValue: b.level, unit: 'PERCENTAGE' }];
    if (b.remainingKwh !== null) remaining.push({ rawValue: Math.round(b.remainingKwh), unit: 'KILOWATT_HOURS' });
    const untilFull: Array<{ rawValue: number; unit: string }> = [{ rawValue: 100 - b.level, unit: 'PERCENTAGE' }];
    if (capacity !== null && b.remainingKwh !== null) untilFull.push({ rawValue: Math.max(0, Math.round(capacity - b.remainingKwh)), unit: 'KILOWATT_HOURS' });
    return {
      online: true,
      status: 'SUCCESS',
      descriptiveCapacityRemaining: descriptive(b.level),
      capacityRemaining: remaining,
      capacityUntilFull: untilFull,
      isCharging: b.charging ?? false,
      isPluggedIn: true,
    };
  }
  const flow = POWER_FLOWS.find((f) => powerDeviceId(f.id) === id);
  if (!flow) return { online: false, status: 'ERROR', errorCode: 'deviceNotFound' };
  const watts = flow.watts(state);
  if (!state.connected || watts === null) return { online: false, status: 'OFFLINE' };
  return { online: true, status: 'SUCCESS', currentSensorStateData: [{ name: 'Power', rawValue: watts }] };
}

const knownIds = () => new Set([BATTERY_ID, ...POWER_FLOWS.map((f) => powerDeviceId(f.id))]);

/** Answers one request; `null` for DISCONNECT (the protocol wants an empty body). Throws for an unknown intent. */
export function fulfill(req: FulfillmentRequest, ctx: IntentContext): Record<string, unknown> | null {
  const input = req.inputs[0]!;
  switch (input.intent) {
    case 'action.devices.SYNC':
      return { requestId: req.requestId, payload: { agentUserId: ctx.agentUserId, devices: syncDevices(ctx.bridgeName) } };
    case 'action.devices.QUERY': {
      const devices: Record<string, unknown> = {};
      for (const d of input.payload?.devices ?? []) devices[d.id] = queryDevice(d.id, ctx);
      return { requestId: req.requestId, payload: { devices } };
    }
    case 'action.devices.EXECUTE': {
      const ids = knownIds();
      const commands: Array<Record<string, unknown>> = [];
      for (const c of input.payload?.commands ?? []) {
        const query = c.devices.filter((d) => ids.has(d.id)).map((d) => d.id);
        const unknown = c.devices.filter((d) => !ids.has(d.id)).map((d) => d.id);
        if (query.length) commands.push({ ids: query, status: 'ERROR', errorCode: 'functionNotSupported' });
        if (unknown.length) commands.push({ ids: unknown, status: 'ERROR', errorCode: 'deviceNotFound' });
      }
      return { requestId: req.requestId, payload: { commands } };
    }
    case 'action.devices.DISCONNECT':
      return null;
    default:
      throw new UnknownIntentError(input.intent);
  }
}

export class UnknownIntentError extends Error {
  constructor(readonly intent: string) {
    super(`unknown intent "${intent}"; expected one of ${INTENTS.join(', ')}`);
  }
}
