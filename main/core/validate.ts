import { z } from 'zod';
import { invalid } from './errors.js';

/**
 * Parses `value` with `schema`; on failure throws a 400 naming the first offending field.
 * `where` prefixes the field path (`query`, `body`, `params`) only when the issue has no path.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw zodToAppError(result.error, where);
}

export function zodToAppError(error: z.ZodError, where: string) {
  // An unknown field is named first: it is usually a typo of the field the other issue complains about.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  let field = issue.path.length ? issue.path.join('.') : where;
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    field = [...issue.path, keys[0]].join('.') || where;
    message = `unknown ${keys.length > 1 ? 'fields' : 'field'} ${keys.map((k) => `"${k}"`).join(', ')}`;
  }
  return invalid(field, message);
}

/** A query flag given by presence only (`?pretty`); any value but empty/true/1 is rejected. */
export const presenceFlag = z
  .union([z.literal(''), z.literal('true'), z.literal('1')])
  .optional()
  .transform((v) => v !== undefined);
