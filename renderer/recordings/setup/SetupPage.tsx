import { useState } from 'react';
import { navigate } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { BoxPicker } from '../features/sync/BoxPicker.js';
import { SchedulePreview } from '../features/sync/SchedulePreview.js';
import { SettingsCard } from '../settings/SettingsCard.js';
import { LIBRARY, SCHEDULE } from '../features/sync/section.js';
import { useServerSettings } from '../use-server.js';
import { FetcharrImport } from './FetcharrImport.js';
import { useLockState } from '../LockBanner.js';
import { PasscodeStep } from './PasscodeStep.js';
import { ShowsPage } from '../shows/ShowsPage.js';

const BASE_STEPS = ['Recording box', 'Media folder', 'Schedule', 'Shows'] as const;

/**
 * First run: find the box (pick one when several answer), the media folder, the schedule, shows to
 * follow, and (beside the energy bridge) the owner's passcode.
 */
export function SetupPage() {
  const { view, error } = useServerSettings();
  const lock = useLockState();
  const [step, setStep] = useState(0);
  const [fromFetcharr, setFromFetcharr] = useState(false);
  if (!view) return error ? <Banner kind="error">{error}</Banner> : <p className="muted">Loading…</p>;
  if (fromFetcharr) {
    return (
      <>
        <h1>Set up the recording sync</h1>
        <FetcharrImport mediaRoot={String(view.settings.media_root ?? '')} onCancel={() => setFromFetcharr(false)} />
      </>
    );
  }
  const STEPS: readonly string[] = lock?.passcodeAvailable ? [...BASE_STEPS, 'Passcode'] : BASE_STEPS;
  const nav = (
    <div className="row">
      {step > 0 && (
        <button type="button" onClick={() => setStep(step - 1)}>
          Back
        </button>
      )}
      {step < STEPS.length - 1 ? (
        <button type="button" className="primary" onClick={() => setStep(step + 1)}>
          Next: {STEPS[step + 1]}
        </button>
      ) : (
        // The end of the setup lands on the Overview, where Sync now and the box's state are.
        <button type="button" className="primary" onClick={() => navigate('/')} data-testid="setup-finish">
          Finish
        </button>
      )}
    </div>
  );
  return (
    <>
      <h1>Set up the recording sync</h1>
      <ol className="steps" aria-label="Setup steps">
        {STEPS.map((s, i) => (
          <li key={s} aria-current={i === step ? 'step' : undefined}>
            {i + 1}. {s}
          </li>
        ))}
      </ol>
      {step === 0 && (
        <Card title="Coming from fetcharr?" id="setup-from-fetcharr">
          <p className="small muted">Bring its shows, settings, sync history and what it already downloaded instead of starting from scratch.</p>
          <button type="button" onClick={() => setFromFetcharr(true)}>
            Import from fetcharr
          </button>
        </Card>
      )}
      {step === 0 && (
        <Card title="1. Find your recording box" id="setup-box">
          <p className="small muted">The service searches the local network for recording boxes. If several answer, pick yours.</p>
          <BoxPicker current={String(view.settings.box_address ?? '')} autoSearch />
          {nav}
        </Card>
      )}
      {step === 1 && (
        <>
          <SettingsCard title="2. Where recordings go" id="setup-library" defs={LIBRARY} view={view} testId="settings-library" />
          {nav}
        </>
      )}
      {step === 2 && (
        <>
          <SettingsCard title="3. When to sync" id="setup-schedule" defs={SCHEDULE} view={view} testId="settings-schedule"
        extraAfter="sync_cron" extra={(v) => <SchedulePreview cron={String(v.sync_cron ?? '')} tz={view.tz} />} />
          {nav}
        </>
      )}
      {step === 3 && (
        <section aria-labelledby="setup-shows-title" id="setup-shows">
          <h2 id="setup-shows-title">4. Follow shows</h2>
          <p className="small muted">Pick the shows to download from the box’s list (or type a name). Finish, then press Sync now on the Overview.</p>
          <ShowsPage inSetup />
          {nav}
        </section>
      )}
      {step === 4 && lock?.passcodeAvailable && <PasscodeStep state={lock} nav={nav} />}
    </>
  );
}
