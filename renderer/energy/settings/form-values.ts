import { unitOf } from './plain.js';
import { fieldInfo, type JsonSchema } from './schema.js';

export type Obj = Record<string, unknown>;

export function setIn(obj: unknown, parts: string[], value: unknown): Obj {
  const base: Obj = typeof obj === 'object' && obj !== null && !Array.isArray(obj) ? { ...(obj as Obj) } : {};
  const [head, ...rest] = parts;
  if (head === undefined) return base;
  base[head] = rest.length ? setIn(base[head], rest, value) : value;
  return base;
}

/**
 * Converts the edited texts of a group (numbers, JSON) into values, by path. Text that does not
 * convert is passed through as typed so the server names the problem; JSON that does not parse
 * is reported here.
 */
export function applyRaws(draft: unknown, raws: Record<string, string>, schemaOf: (path: string) => JsonSchema | undefined): { value: unknown; errors: Record<string, string> } {
  let value = draft;
  const errors: Record<string, string> = {};
  for (const [path, text] of Object.entries(raws)) {
    const schema = schemaOf(path);
    if (!schema) continue;
    const info = fieldInfo(schema);
    const parts = path.split('.').slice(1);
    let v: unknown = text;
    if (info.kind === 'integer' || info.kind === 'number') {
      const trimmed = text.trim();
      if (trimmed === '') v = info.nullable ? null : text;
      else if (Number.isFinite(Number(trimmed))) {
        // Shown in the field's unit (seconds for a value stored in ms): back to the stored unit.
        const factor = unitOf(path)?.factor ?? 1;
        const stored = Number(trimmed) * factor;
        v = factor !== 1 && Math.abs(stored - Math.round(stored)) < 1e-6 ? Math.round(stored) : stored;
      }
    } else if (info.kind === 'json') {
      try {
        v = JSON.parse(text);
      } catch {
        errors[path] = 'Not valid JSON.';
        continue;
      }
    }
    value = parts.length ? setIn(value, parts, v) : v;
  }
  return { value, errors };
}

/** The members of `next` that differ from `prev` (arrays and nested objects compared whole). */
export function changedMembers(prev: unknown, next: unknown): unknown {
  if (typeof next !== 'object' || next === null || Array.isArray(next)) return JSON.stringify(prev) === JSON.stringify(next) ? undefined : next;
  const out: Obj = {};
  for (const [k, v] of Object.entries(next as Obj)) {
    const before = (prev as Obj | undefined)?.[k];
    if (JSON.stringify(before) !== JSON.stringify(v)) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The schema node for a dotted path ("gateway.port", "tariff.superExport.rate"). */
export function schemaAt(root: JsonSchema, path: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const part of path.split('.')) {
    if (!node) return undefined;
    const s: JsonSchema = fieldInfo(node).schema;
    // Named members first; then record entries (names by slot) and list items (windows, alerts).
    node = s.properties?.[part] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined) ?? (/^\d+$/.test(part) ? s.items : undefined);
  }
  return node;
}

/** The value at a dotted path ("names.smartLoads.3" → the name of slot 3). */
export function getIn(obj: unknown, parts: string[]): unknown {
  let v = obj;
  for (const p of parts) v = typeof v === 'object' && v !== null ? (v as Obj)[p] : undefined;
  return v;
}
