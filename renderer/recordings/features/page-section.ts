import type { ReactNode } from 'react';
import type { Capabilities, SettingsView } from '../types.js';

/** What the settings page hands a section when it draws it. */
export interface RecordingsPageContext {
  /** The settings as the service last sent them (values, sources, time zone, capabilities). */
  view: SettingsView;
  /** Fetch the settings again (after a check that may have saved some). */
  reload: () => void;
}

/**
 * How the recordings settings page draws one section: its link in the section list, the short
 * "how it works" above it and the card itself, which saves the section's own settings only.
 */
export interface RecordingsPageSection {
  /** The section's element id, also its link target (`library`, `media-server`). */
  readonly id: string;
  /** The section's name in the page's list of sections. */
  readonly label: string;
  /** The short "how it works" above the section, in plain words for a householder. */
  readonly explainer?: ReactNode;
  /** The server's setting keys the section edits (its feature's keys, checked by index.test.ts). */
  readonly keys: readonly string[];
  /** Drawn only when the service offers this (its feature is wired in): see GET /api/settings. */
  readonly needs?: keyof Capabilities;
  readonly render: (page: RecordingsPageContext) => ReactNode;
}

/**
 * What a feature folder under renderer/recordings/features hands the settings page: the sections of
 * the settings its server module owns (main/recordings/features/index.ts has the same names).
 */
export interface RecordingsFeaturePage {
  /** The server module's name (`sync`, `adRemoval`). */
  readonly name: string;
  readonly sections: readonly RecordingsPageSection[];
}
