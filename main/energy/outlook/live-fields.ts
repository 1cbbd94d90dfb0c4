import { z } from 'zod';
import type { LiveOf } from '../feature.js';

/**
 * The outlook's live-state field: whether the battery covers today's peak windows (null: unknown
 * or none left) and the first window's sentence when it does not. Absent until the first poll.
 */
export const outlookLive = {
  outlook: z.object({ coversPeak: z.boolean().nullable(), message: z.string().nullable() }).optional(),
};
export type OutlookLive = LiveOf<typeof outlookLive>;
