import type { SaveResult } from './GroupForm.js';
import type { JsonSchema } from './schema.js';

/** What a settings section gets: its group of the schema and the page's shared state. */
export interface SectionProps {
  group: string;
  schema: JsonSchema;
  root: JsonSchema;
  value: unknown;
  locked: boolean;
  restartRequired: string[];
  onSaved: (r: SaveResult) => void;
  onLocked: () => void;
}
