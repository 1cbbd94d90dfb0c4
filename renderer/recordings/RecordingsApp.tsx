import { lazy, Suspense, useEffect } from 'react';
import { Link, usePath } from '../app/router.js';

const RecordingsPage = lazy(() => import('./list/RecordingsPage.js').then((m) => ({ default: m.RecordingsPage })));
const ShowsPage = lazy(() => import('./shows/ShowsPage.js').then((m) => ({ default: m.ShowsPage })));
const HistoryPage = lazy(() => import('./history/HistoryPage.js').then((m) => ({ default: m.HistoryPage })));
const SettingsPage = lazy(() => import('./settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })));
const SetupPage = lazy(() => import('./setup/SetupPage.js').then((m) => ({ default: m.SetupPage })));

const routes = [
  { path: '/', label: 'Recordings' },
  { path: '/shows', label: 'Shows' },
  { path: '/history', label: 'Sync history' },
  { path: '/settings', label: 'Settings' },
  { path: '/setup', label: 'Setup' },
] as const;

function Page({ path }: { path: string }) {
  switch (path) {
    case '/':
      return <RecordingsPage />;
    case '/shows':
      return <ShowsPage />;
    case '/history':
      return <HistoryPage />;
    case '/settings':
      return <SettingsPage />;
    case '/setup':
      return <SetupPage />;
    default:
      return (
        <section className="card">
          <h1>Page not found</h1>
          <p>
            There is no page at <code>{path}</code>. <Link href="/">Go to the recordings</Link>.
          </p>
        </section>
      );
  }
}

/** The recordings app shell: the energy pages' header and look, its own navigation. */
export function RecordingsApp() {
  const path = usePath();
  const route = routes.find((r) => r.path === path);
  useEffect(() => {
    document.title = `${route?.label ?? 'Not found'} · Recording sync`;
  }, [route]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand" aria-hidden="true">
          ▶ Recording sync
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
