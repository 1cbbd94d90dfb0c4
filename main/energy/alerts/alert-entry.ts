import { z } from 'zod';

/** An alert rule firing now, as the live state and the snapshot carry it. */
export const alertEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.string(),
  message: z.string(),
  /** `value` names the watched value (the trigger); `reading` is its latest reading in `unit`. */
  condition: z.object({ value: z.string(), comparison: z.enum(['atOrAbove', 'atOrBelow']), threshold: z.number(), unit: z.string(), reading: z.number().nullable() }),
  since: z.iso.datetime(),
});

export type ActiveAlert = z.output<typeof alertEntrySchema>;
