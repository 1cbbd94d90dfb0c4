import { Card } from '../../../kit/Card.js';
import { SettingsCard, type SettingDef } from '../../settings/SettingsCard.js';
import type { RecordingsFeaturePage } from '../page-section.js';
import { BoxPicker } from './BoxPicker.js';
import { SchedulePreview } from './SchedulePreview.js';
import { StorageTest } from './StorageTest.js';

export const LIBRARY: SettingDef[] = [
  { key: 'media_root' },
];
export const SCHEDULE: SettingDef[] = [
  { key: 'sync_cron' },
  { key: 'download_concurrency' },
];

/** The sync itself: which box, where the recordings go, when it looks for new ones. */
export const syncPage: RecordingsFeaturePage = {
  name: 'sync',
  sections: [
    {
      id: 'box',
      label: 'Recording box',
      explainer: <p>The service finds your recording box on your home network and copies the recordings of the shows you follow from it. Pick the box here.</p>,
      keys: ['box_address'],
      render: ({ view }) => (
        <Card title="Recording box" id="box">
          <BoxPicker current={String(view.settings.box_address ?? '')} />
        </Card>
      ),
    },
    {
      id: 'library',
      label: 'Media library',
      explainer: <p>Copied recordings go into this folder on the computer running the service, one folder per show and season, the way media servers like them.</p>,
      keys: LIBRARY.map((d) => d.key),
      render: ({ view }) => <SettingsCard title="Media library" id="library" defs={LIBRARY} view={view} testId="settings-library" extra={(v) => <StorageTest path={String(v.media_root ?? '')} />} />,
    },
    {
      id: 'schedule',
      label: 'Schedule',
      explainer: <p>The service looks for new recordings on this schedule; "Sync now" on the recordings page runs one at any time. Fewer downloads at once are gentler on the box.</p>,
      keys: SCHEDULE.map((d) => d.key),
      render: ({ view }) => (
        <SettingsCard
          title="Schedule"
          id="schedule"
          defs={SCHEDULE}
          view={view}
          testId="settings-schedule"
          extraAfter="sync_cron"
          extra={(v) => <SchedulePreview cron={String(v.sync_cron ?? '')} tz={view.tz} />}
        />
      ),
    },
  ],
};
