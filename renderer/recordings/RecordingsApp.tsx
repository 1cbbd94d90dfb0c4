import { lazy } from 'react';
import { AppShell, type ShellRoute } from '../app/AppShell.js';
import { HealthBanner } from './HealthBanner.js';
import { LockBanner } from './LockBanner.js';
import { RecordingsHeader } from './RecordingsHeader.js';

const OverviewPage = lazy(() => import('./overview/OverviewPage.js').then((m) => ({ default: m.OverviewPage })));
const RecordingsPage = lazy(() => import('./list/RecordingsPage.js').then((m) => ({ default: m.RecordingsPage })));
const ShowsPage = lazy(() => import('./shows/ShowsPage.js').then((m) => ({ default: m.ShowsPage })));
const HistoryPage = lazy(() => import('./history/HistoryPage.js').then((m) => ({ default: m.HistoryPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const SetupPage = lazy(() => import('./setup/SetupPage.js').then((m) => ({ default: m.SetupPage })));

const routes: readonly ShellRoute[] = [
  { path: '/', label: 'Overview', page: OverviewPage },
  { path: '/recordings', label: 'Recordings', page: RecordingsPage },
  { path: '/shows', label: 'Shows', page: ShowsPage },
  { path: '/history', label: 'Sync history', page: HistoryPage },
  { path: '/settings', label: 'Settings', page: SettingsPage },
  { path: '/setup', label: 'Setup', page: SetupPage },
];

/** The recording sync's pages: the energy pages' header and look, its own navigation. */
export function RecordingsApp() {
  const top = (
    <>
      <LockBanner />
      <HealthBanner />
    </>
  );
  return <AppShell brand="▶ Recording sync" appName="Recording sync" routes={routes} homeLabel="overview" top={top} headerEnd={<RecordingsHeader />} />;
}
