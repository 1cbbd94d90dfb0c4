import { useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { GroupForm, type SaveResult } from './GroupForm.js';
import { PasscodePanel } from './PasscodePanel.js';
import { HomeKitPairing } from './HomeKitPairing.js';
import { rescanInverters, TestButton, testGateway, testWeather } from './Tools.js';
import { insightEditors } from './InsightEditors.js';
import { listEditors } from './ListEditors.js';
import { SectionedPage } from '../../kit/SectionedPage.js';
import { ENERGY_EXPLAINERS } from './explainers.js';
import { sectionComponents, type SectionProps } from './sections.js';
import { humanize } from './schema.js';
import { useSettings } from './use-settings.js';

type Obj = Record<string, unknown>;

/** The gateway first: it is what a householder came to settings for on the first day. */
const sectionOrder = <T,>(entries: Array<[string, T]>) => [...entries.filter(([k]) => k === 'gateway'), ...entries.filter(([k]) => k !== 'gateway')];

const LOCKED_WHY = 'Unlock the settings with the passcode first.';

const editorsFor = (group: string) => ({ ...insightEditors[group], ...listEditors[group] });

/** Every setting, grouped by area and rendered from the schema, one area at a time; the passcode gate on top. */
export function SettingsPage() {
  const { settings, schema, error, reload, setSettings } = useSettings();
  const [restartRequired, setRestartRequired] = useState<string[]>([]);

  if (error && !settings) return <Banner kind="error">{error}</Banner>;
  if (!settings || !schema?.properties) return <p className="muted">Loading settings…</p>;

  const locked = settings.passcodeSet && !settings.unlocked;
  const saved = (r: SaveResult) => {
    setSettings({ ...(r.settings as Obj), passcodeSet: settings.passcodeSet, unlocked: settings.unlocked } as typeof settings);
    setRestartRequired(r.restartRequired);
  };
  const tools: Record<string, (draft: Obj) => React.ReactNode> = {
    gateway: (g) => (
      <>
        <TestButton label="Test connection" disabled={locked ? LOCKED_WHY : String(g.host ?? '').trim() ? null : 'Enter the gateway address first.'} run={() => testGateway(String(g.host ?? ''), Number(g.port) || undefined)} />
        <TestButton label="Find inverters again" disabled={locked ? LOCKED_WHY : null} run={rescanInverters} />
      </>
    ),
    weather: (w) => (
      <TestButton
        label="Test weather"
        disabled={locked ? LOCKED_WHY : String(w.location ?? '').trim() || typeof w.latitude === 'number' ? null : 'Enter a place name or coordinates first.'}
        run={() => testWeather(w)}
      />
    ),
    homekit: () => <HomeKitPairing locked={locked} />,
  };

  return (
    <>
      <h1>Settings</h1>
      {restartRequired.length > 0 && (
        <Banner kind="warn" testId="restart-banner">
          Restart the bridge to apply: {restartRequired.map((p) => p.split('.').map(humanize).join(' › ')).join(', ')}.
        </Banner>
      )}
      <PasscodePanel passcodeSet={settings.passcodeSet} unlocked={settings.unlocked} onChange={() => void reload()} />
      {locked && (
        <Banner kind="info" testId="locked-banner">
          Settings are read-only until you unlock them with the passcode. Addresses and codes are hidden while locked.
        </Banner>
      )}
      <SectionedPage
        sections={sectionOrder(Object.entries(schema.properties)).map(([key, sub]) => ({
          id: key,
          label: humanize(key),
          explainer: ENERGY_EXPLAINERS[key],
          render: () => {
            const common: SectionProps = { group: key, schema: sub, root: schema, value: settings[key], locked, restartRequired, onSaved: saved, onLocked: () => void reload() };
            const Custom = sectionComponents[key];
            return Custom ? <Custom key={key} {...common} /> : <GroupForm key={key} {...common} tools={tools[key]} editors={editorsFor(key)} />;
          },
        }))}
      />
    </>
  );
}
