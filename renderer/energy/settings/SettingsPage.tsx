import { useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { OWNER_ONLY_NOTE } from '../../kit/owner-only.js';
import { GroupForm, restartLabel, type SaveResult } from './GroupForm.js';
import { PasscodePanel } from './PasscodePanel.js';
import { SectionedPage } from '../../kit/SectionedPage.js';
import { energyPageSections } from '../features/index.js';
import type { SectionProps } from './sections.js';
import { humanize } from './schema.js';
import { useSettings } from './use-settings.js';

type Obj = Record<string, unknown>;

/** The gateway first: it is what a householder came to settings for on the first day. */
const sectionOrder = <T,>(entries: Array<[string, T]>) => [...entries.filter(([k]) => k === 'gateway'), ...entries.filter(([k]) => k !== 'gateway')];

/** Every setting, grouped by area and rendered from the schema, one area at a time; the passcode gate on top. */
export function SettingsPage() {
  const { settings, schema, error, reload, setSettings } = useSettings();
  const [restartRequired, setRestartRequired] = useState<string[]>([]);

  if (error && !settings) return <Banner kind="error">{error}</Banner>;
  if (!settings || !schema?.properties) return <p className="muted">Loading settings…</p>;

  const locked = settings.passcodeSet && !settings.unlocked;
  const ownerOnly = settings.owner === false ? (settings.ownerOnly ?? []) : [];
  const saved = (r: SaveResult) => {
    setSettings({ ...(r.settings as Obj), passcodeSet: settings.passcodeSet, unlocked: settings.unlocked, owner: settings.owner, ownerOnly: settings.ownerOnly } as typeof settings);
    setRestartRequired(r.restartRequired);
  };

  return (
    <>
      <h1>Settings</h1>
      {restartRequired.length > 0 && (
        <Banner kind="warn" testId="restart-banner">
          Restart the bridge to apply: {restartRequired.map((p) => (p.includes('.') ? `${humanize(p.split('.')[0]!)} › ${restartLabel(schema, p)}` : humanize(p))).join(', ')}.
        </Banner>
      )}
      <PasscodePanel passcodeSet={settings.passcodeSet} unlocked={settings.unlocked} onChange={() => void reload()} />
      {locked && (
        <Banner kind="info" testId="locked-banner">
          Settings are read-only until you unlock them with the passcode. Addresses and codes are hidden while locked.
        </Banner>
      )}
      {!locked && ownerOnly.length > 0 && (
        <Banner kind="info" testId="owner-only-banner">
          Opened from another device: the port, host names and HomeKit connections are read-only here. {OWNER_ONLY_NOTE}
        </Banner>
      )}
      <SectionedPage
        sections={sectionOrder(Object.entries(schema.properties)).map(([key, sub]) => ({
          id: key,
          label: humanize(key),
          explainer: energyPageSections.get(key)?.explainer,
          render: () => {
            const common: SectionProps = { group: key, schema: sub, root: schema, value: settings[key], locked, ownerOnly, restartRequired, onSaved: saved, onLocked: () => void reload() };
            const page = energyPageSections.get(key);
            const tools = page?.tools;
            if (page?.component) return <page.component key={key} {...common} />;
            return <GroupForm key={key} {...common} tools={tools && ((draft) => tools(draft, { locked }))} editors={{ ...page?.editors }} />;
          },
        }))}
      />
    </>
  );
}
