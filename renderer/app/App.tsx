import { lazy } from 'react';
import { DashboardPage } from '../energy/dashboard/DashboardPage.js';
import { AppShell, type ShellRoute } from './AppShell.js';

const TrendsPage = lazy(() => import('../energy/trends/TrendsPage.js').then((m) => ({ default: m.TrendsPage })));
const SettingsPage = lazy(() => import('../energy/settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const SavingsPage = lazy(() => import('../energy/savings/SavingsPage.js').then((m) => ({ default: m.SavingsPage })));
const SetupPage = lazy(() => import('../energy/setup/SetupPage.js').then((m) => ({ default: m.SetupPage })));

const routes: readonly ShellRoute[] = [
  { path: '/', label: 'Dashboard', page: DashboardPage },
  { path: '/trends', label: 'Trends', page: TrendsPage },
  { path: '/savings', label: 'Savings', page: SavingsPage },
  { path: '/settings', label: 'Settings', page: SettingsPage },
  { path: '/setup', label: 'Setup', page: SetupPage },
];

/** The energy bridge's pages. */
export function App() {
  return <AppShell brand="⚡ Energy bridge" appName="Energy bridge" routes={routes} homeLabel="dashboard" />;
}
