import { Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { OfflineBanner } from '../kit/OfflineBanner.js';
import { Link, usePath } from './router.js';

export interface ShellRoute {
  path: string;
  /** Navigation text, also the page's title. */
  label: string;
  page: ComponentType;
}

/**
 * The shell both services' pages share: skip link, header with the app's name and navigation,
 * the current page below (lazy pages show "Loading…"), and a "page not found" for other paths.
 * `top` goes above every page (the recordings pages' lock banner); `headerEnd` sits at the header's
 * end (a HeaderStatus: what the service is doing, the clock and its time zone).
 */
export function AppShell({ brand, appName, routes, homeLabel, top, headerEnd }: { brand: string; appName: string; routes: readonly ShellRoute[]; homeLabel: string; top?: ReactNode; /** The header's right side (HeaderStatus: status and clock). */ headerEnd?: ReactNode }) {
  const path = usePath();
  const route = routes.find((r) => r.path === path);
  useEffect(() => {
    document.title = `${route?.label ?? 'Not found'} · ${appName}`;
  }, [route, appName]);
  const Page = route?.page;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand" aria-hidden="true">
          {brand}
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
        {headerEnd}
      </header>
      <main id="main" tabIndex={-1}>
        <OfflineBanner service={appName.toLowerCase()} />
        {top}
        <Suspense fallback={<p className="muted">Loading…</p>}>
          {Page ? (
            <Page />
          ) : (
            <section className="card">
              <h1>Page not found</h1>
              <p>
                There is no page at <code>{path}</code>. <Link href="/">Go to the {homeLabel}</Link>.
              </p>
            </section>
          )}
        </Suspense>
      </main>
    </>
  );
}
