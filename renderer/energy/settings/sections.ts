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

/**
 * Sections drawn by their own component instead of the schema form, by settings group: one line
 * here adds one (`homekit: HomeKitSection`). Such a component keeps the element id
 * `settings-<group>` on its heading so the section links find it, and saves its own group only.
 */
export const sectionComponents: Record<string, (p: SectionProps) => React.ReactNode> = {};
