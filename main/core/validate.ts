import { z } from 'zod';
import { invalid } from './errors.js';

/**
 * Parses `value` with `schema`; on failure throws a 400 naming the first offending field.
 * `where` prefixes the field path (`query`, `body`, `params`) only when the issue has no path.
 * The message names the field in words when the schema gives it a `.meta({ label })`
 * ("Sync schedule: is not a valid…"); `error.field` keeps the path for the pages.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw zodToAppError(result.error, where, schema);
}

const metaLabel = (s: z.ZodType): string | undefined => {
  const label = (s.meta() as { label?: unknown } | undefined)?.label;
  return typeof label === 'string' ? label : undefined;
};

/** Peels defaults, optionals, nullables and pipes, returning the first label met on the way and the core. */
function peel(s: z.ZodType): { core: z.ZodType; label?: string } {
  let node = s;
  let label = metaLabel(node);
  for (;;) {
    let inner: z.ZodType | undefined;
    if (node instanceof z.ZodDefault || node instanceof z.ZodOptional || node instanceof z.ZodNullable) inner = node.def.innerType as z.ZodType;
    else if (node instanceof z.ZodPipe) inner = node.def.in as z.ZodType;
    if (!inner) return { core: node, label };
    node = inner;
    label ??= metaLabel(node);
  }
}

/** The label (`.meta({ label })`) of the field at `path` in `schema`, if the schema gives one. */
export function labelAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let node: z.ZodType | undefined = schema;
  for (const key of path) {
    const { core } = peel(node);
    if (core instanceof z.ZodObject) node = (core.shape as Record<string, z.ZodType>)[String(key)];
    else if (core instanceof z.ZodArray && typeof key === 'number') node = core.element as z.ZodType;
    else if (core instanceof z.ZodRecord) node = core.def.valueType as z.ZodType;
    else node = undefined;
    if (!node) return undefined;
  }
  return path.length ? peel(node).label : undefined;
}

export function zodToAppError(error: z.ZodError, where: string, schema?: z.ZodType) {
  // An unknown field is named first: it is usually a typo of the field the other issue complains about.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  let field = issue.path.length ? issue.path.join('.') : where;
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    field = [...issue.path, keys[0]].join('.') || where;
    message = `unknown ${keys.length > 1 ? 'fields' : 'field'} ${keys.map((k) => `"${k}"`).join(', ')}`;
    return invalid(field, message);
  }
  return invalid(field, message, schema ? labelAt(schema, issue.path) : undefined);
}

/** A query flag given by presence only (`?pretty`); any value but empty/true/1 is rejected. */
export const presenceFlag = z
  .union([z.literal(''), z.literal('true'), z.literal('1')])
  .optional()
  .transform((v) => v !== undefined);

/** A calendar date `YYYY-MM-DD` (2025-02-30 is refused, not rolled into March). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a calendar date');
