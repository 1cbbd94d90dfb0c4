import type { SaveResult } from './GroupForm.js';
import type { JsonSchema } from './schema.js';

/** What a settings section gets: its group of the schema and the page's shared state. */
export interface SectionProps {
  group: string;
  schema: JsonSchema;
  root: JsonSchema;
  value: unknown;
  locked: boolean;
  /** Field paths read-only here: the PC's ports and names, when the page is open on another device. */
  ownerOnly?: readonly string[];
  restartRequired: string[];
  onSaved: (r: SaveResult) => void;
  onLocked: () => void;
}
