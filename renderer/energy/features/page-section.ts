import type { ReactNode } from 'react';
import type { FieldEditor } from '../settings/SettingField.js';
import type { SectionProps } from '../settings/sections.js';

type Obj = Record<string, unknown>;

/** What the settings page tells a section's tools. */
export interface PageContext {
  /** A passcode is set and this browser has no session: nothing may be changed or probed. */
  locked: boolean;
}

/**
 * How the settings page draws one settings group (the server's section of the same `key`). A group
 * with no entry is drawn from the schema alone; an entry adds to that form, or replaces it.
 */
export interface EnergyPageSection {
  /** The settings group: the key of the server's section (`tariff`, `smartHome`). */
  readonly key: string;
  /** The short "how it works" above the section, in plain words for a householder. */
  readonly explainer?: ReactNode;
  /** Purpose-built controls by field path (`tariff.windows`), in place of the schema's field. */
  readonly editors?: Readonly<Record<string, FieldEditor>>;
  /** Extra controls in the save bar (test buttons) that see the values being edited. */
  readonly tools?: (draft: Obj, page: PageContext) => ReactNode;
  /**
   * A component that draws the whole section instead of the schema form. It keeps the element id
   * `settings-<group>` on its heading so the section links find it, and saves its own group only.
   */
  readonly component?: (p: SectionProps) => ReactNode;
}

/**
 * What a feature folder under renderer/energy/features hands the settings page: the page sections of
 * the settings sections its server module owns (main/energy/settings/energy-settings.ts `settingsOwners` has the same names).
 */
export interface EnergyFeaturePage {
  /** The server module's name (`gateway`, `tariff`). */
  readonly name: string;
  readonly sections: readonly EnergyPageSection[];
}

/** The reason a tool is disabled while the settings are locked. */
export const LOCKED_WHY = 'Unlock the settings with the passcode first.';
