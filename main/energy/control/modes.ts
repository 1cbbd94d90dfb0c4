import { z } from 'zod';
import { CONTROL_MODES, type ControlKey } from '../gateway/control-registers.js';

/** When a mode ends: at a time, at a state of charge, or when the owner changes it. */
export const modeEnd = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('time'), at: z.iso.datetime({ offset: true }) }).strict(),
  z.object({ kind: z.literal('soc'), soc: z.number().min(0).max(100) }).strict(),
  z.object({ kind: z.literal('none') }).strict(),
]);

const power = z.number().int().min(0).max(100_000);

/** The modes a household picks (POST /api/control/mode). */
export const modeRequest = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('automatic') }).strict(),
  z.object({ mode: z.literal('charge'), targetSoc: z.number().min(1).max(100), powerW: power, source: z.enum(['grid', 'pv']).default('grid'), end: modeEnd.default({ kind: 'none' }) }).strict(),
  z.object({ mode: z.literal('hold'), end: modeEnd.default({ kind: 'none' }) }).strict(),
  z.object({ mode: z.literal('discharge'), floorSoc: z.number().min(0).max(100), powerW: power, end: modeEnd.default({ kind: 'none' }) }).strict(),
  z.object({ mode: z.literal('exportLimit'), limitW: power, end: modeEnd.default({ kind: 'none' }) }).strict(),
  z.object({ mode: z.literal('schedule') }).strict(),
]);

export type ModeRequest = z.output<typeof modeRequest>;
export type ModeEnd = z.output<typeof modeEnd>;

/** One register write a mode needs, with the reason in words. */
export interface PlannedWrite {
  key: ControlKey;
  value: number;
  why: string;
}

const REMOTE_ON: PlannedWrite = { key: 'remoteEms', value: 1, why: 'remote control on, so the plant follows the mode' };

/**
 * The register writes that put the plant in `m` (in order: limits, then the mode, then remote EMS
 * on, so the plant never runs a mode with the previous limits). Automatic is the restore, done by
 * the controller (remote EMS off and the saved values back).
 */
export function writesFor(m: ModeRequest): PlannedWrite[] {
  switch (m.mode) {
    case 'automatic':
    case 'schedule':
      return [];
    case 'charge':
      return [
        { key: 'chargeLimitW', value: m.powerW, why: `charge at up to ${m.powerW} W` },
        m.source === 'grid'
          ? { key: 'controlMode', value: CONTROL_MODES.chargeGridFirst, why: 'command charging, from the grid first' }
          : { key: 'controlMode', value: CONTROL_MODES.chargePvFirst, why: 'command charging, from solar first' },
        REMOTE_ON,
      ];
    case 'hold':
      return [
        { key: 'dischargeLimitW', value: 0, why: 'no discharging: the battery keeps its charge' },
        { key: 'controlMode', value: CONTROL_MODES.selfConsumption, why: 'self-consumption: solar surplus still charges the battery' },
        REMOTE_ON,
      ];
    case 'discharge':
      return [
        { key: 'dischargeLimitW', value: m.powerW, why: `discharge at up to ${m.powerW} W` },
        { key: 'controlMode', value: CONTROL_MODES.dischargeEssFirst, why: 'command discharging, battery first' },
        REMOTE_ON,
      ];
    case 'exportLimit':
      return [{ key: 'exportLimitW', value: m.limitW, why: m.limitW === 0 ? 'no export at the grid point' : `export at most ${m.limitW} W at the grid point` }];
  }
}

/** What a mode does, in words (said before it acts). */
export function describeMode(m: ModeRequest): string {
  const end = 'end' in m ? endWords(m.end) : '';
  switch (m.mode) {
    case 'automatic':
      return 'The plant runs on its own again: remote control off, your previous limits put back.';
    case 'schedule':
      return 'The battery follows the price plan: it charges in the cheapest hours, holds for the dearest and limits export while feed-in costs money.';
    case 'charge':
      return `The battery charges ${m.source === 'grid' ? 'from the grid' : 'from solar first, then the grid'} at up to ${m.powerW} W until it reaches ${m.targetSoc} %${end}.`;
    case 'hold':
      return `The battery stops discharging and keeps its charge (solar surplus still charges it)${end}.`;
    case 'discharge':
      return `The battery discharges at up to ${m.powerW} W down to ${m.floorSoc} %${end}.`;
    case 'exportLimit':
      return `${m.limitW === 0 ? 'Nothing is exported to the grid' : `Export to the grid is capped at ${m.limitW} W`}; solar is curtailed to keep to it${end}.`;
  }
}

function endWords(end: ModeEnd): string {
  if (end.kind === 'time') return `, until ${end.at}`;
  if (end.kind === 'soc') return `, until the battery is at ${end.soc} %`;
  return ', until you change it';
}
