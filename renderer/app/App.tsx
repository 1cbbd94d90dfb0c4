import { lazy, Suspense, useEffect } from 'react';
import { DashboardPage } from '../energy/dashboard/DashboardPage.js';
import { Link, usePath } from './router.js';

const TrendsPage = lazy(() => import('../energy/trends/TrendsPage.js').then((m) => ({ default: m.TrendsPage })));
const SettingsPage = lazy(() => import('../energy/settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const SetupPage = lazy(() => import('../energy/setup/SetupPage.js').then((m) => ({ default: m.SetupPage })));

const routes = [
  { path: '/', label: 'Dashboard', title: 'Dashboard' },
  { path: '/trends', label: 'Trends', title: 'Trends' },
  { path: '/settings', label: 'Settings', title: 'Settings' },
  { path: '/setup', label: 'Setup', title: 'Setup' },
] as const;

function Page({ path }: { path: string }) {
  switch (path) {
    case '/':
      return <DashboardPage />;
    case '/trends':
      return <TrendsPage />;
    case '/settings':
      return <SettingsPage />;
    case '/setup':
      return <SetupPage />;
    default:
      return (
        <section className="card">
          <h1>Page not found</h1>
          <p>
            There is no page at <code>{path}</code>. <Link href="/">Go to the dashboard</Link>.
          </p>
        </section>
      );
  }
}

/** The app shell: header with navigation, the current page below. */
export function App() {
  const path = usePath();
  const route = routes.find((r) => r.path === path);
  useEffect(() => {
    document.title = `${route?.title ?? 'Not found'} · Energy bridge`;
  }, [route]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand" aria-hidden="true">
          ⚡ Energy bridge
        </span>
        <nav aria-label="Main">
          <ul>
            {routes.map((r) => (
              <li key={r.path}>
                <Link href={r.path} aria-current={r.path === path ? 'page' : undefined}>
                  {r.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Page path={path} />
        </Suspense>
      </main>
    </>
  );
}
