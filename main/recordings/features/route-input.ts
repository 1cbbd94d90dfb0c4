import { z } from 'zod';
import { parseInput } from '../../core/validate.js';

/** The `:box_id` of a recording's routes (the service's and the features'). */
export const boxIdParams = z.object({ box_id: z.string().min(1).max(64) });

const noFields = z.object({}).strict();

/**
 * Routes that take no body accept none, `{}` or `null`: anything else (unknown fields, a string, an
 * array) is a 400 naming the field, before the route does anything (no sync starts, no box is asked).
 */
export function requireNoBody(body: unknown): void {
  parseInput(noFields, body ?? {}, 'body');
}
