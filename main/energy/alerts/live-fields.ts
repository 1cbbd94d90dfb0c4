import { z } from 'zod';
import { liveOf, type LiveOf } from '../feature.js';
import { alertEntrySchema, type ActiveAlert } from './alert-entry.js';

/** The alerts' live-state field: the rules firing now (see engine.ts). */
export const alertsLive = {
  alerts: z.array(alertEntrySchema).default([]),
};
export type AlertsLive = LiveOf<typeof alertsLive>;
/** The alerts' own field of a live state (none while none is published). */
export const alertsOf = (state: object): readonly ActiveAlert[] => liveOf<AlertsLive>(state).alerts ?? [];
