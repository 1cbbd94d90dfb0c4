import { schemaAt } from '../settings/form-values.js';
import { labelOf, unitOf } from '../settings/plain.js';
import type { JsonSchema } from '../settings/schema.js';

/** A settings field's words as the server's schema gives them (GET /api/settings/schema): the one source. */
export interface SchemaWords {
  label: string;
  hint: string | undefined;
  /** The unit shown beside a number (kWh, %), as the settings page shows it. */
  unit: string | undefined;
}

/** The label, hint and unit of the setting at `path` ("battery.capacityKwh"), from the server's schema. */
export function schemaWords(root: JsonSchema | null, path: string): SchemaWords {
  const node = root ? schemaAt(root, path) : undefined;
  return { label: labelOf(path, node), hint: node?.description ?? node?.anyOf?.find((x) => x.description)?.description, unit: unitOf(path)?.symbol };
}
