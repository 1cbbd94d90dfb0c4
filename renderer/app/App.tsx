import { lazy, Suspense } from 'react';
import { DashboardPage } from '../energy/dashboard/DashboardPage.js';
import { EnergyHeader } from '../energy/EnergyHeader.js';
import { AppShell, type ShellRoute } from './AppShell.js';
import { usePath } from './router.js';

const TrendsPage = lazy(() => import('../energy/trends/TrendsPage.js').then((m) => ({ default: m.TrendsPage })));
const SettingsPage = lazy(() => import('../energy/settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const SavingsPage = lazy(() => import('../energy/savings/SavingsPage.js').then((m) => ({ default: m.SavingsPage })));
const WallPage = lazy(() => import('../energy/wall/WallPage.js').then((m) => ({ default: m.WallPage })));
const SetupPage = lazy(() => import('../energy/setup/SetupPage.js').then((m) => ({ default: m.SetupPage })));

const routes: readonly ShellRoute[] = [
  { path: '/', label: 'Dashboard', page: DashboardPage },
  { path: '/wall', label: 'Wall view', page: () => null },
  { path: '/trends', label: 'Trends', page: TrendsPage },
  { path: '/savings', label: 'Savings', page: SavingsPage },
  { path: '/settings', label: 'Settings', page: SettingsPage },
  { path: '/setup', label: 'Setup', page: SetupPage },
];

/** The energy bridge's pages; `/wall` and `/wall/<reading>` are the wall view. */
export function App() {
  const path = usePath();
  // The wall view fills the screen without the site's header (a tablet shows it all day).
  if (path === '/wall' || path.startsWith('/wall/'))
    return (
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <WallPage path={path} />
      </Suspense>
    );
  return <AppShell brand="⚡ Energy bridge" appName="Energy bridge" routes={routes} homeLabel="dashboard" headerEnd={<EnergyHeader />} />;
}
