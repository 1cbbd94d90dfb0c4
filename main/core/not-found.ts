import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody } from './errors.js';

/** Paths that are machine interfaces: an unknown one there is always the JSON 404. */
const MACHINE_PREFIXES = ['/api/', '/assets/', '/events', '/healthz', '/fulfillment', '/metrics'];

/**
 * A browser navigation (GET/HEAD that asks for HTML first-hand) to a path that is not a machine
 * interface: it gets the friendly page; everything else (fetch, curl, /api/*) the JSON 404.
 */
export function wantsHtmlPage(req: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = req.url.split('?')[0] ?? '/';
  if (path === '/api' || MACHINE_PREFIXES.some((p) => path.startsWith(p))) return false;
  const accept = String(req.headers.accept ?? '');
  return /\btext\/html\b/i.test(accept);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The friendly "page not found" both services answer a browser with: self-contained (no script,
 * inline style only, which both services' CSP allows), light and dark, a link back to the start page.
 */
export function notFoundPage(path: string, appName: string): string {
  const shown = escapeHtml(path.length > 200 ? `${path.slice(0, 200)}…` : path);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Page not found · ${escapeHtml(appName)}</title>
<style>
:root { color-scheme: light dark; --bg: #f4f6f8; --surface: #fff; --text: #15202b; --muted: #5b6875; --border: #d5dbe1; --accent: #0b63c5; --accent-text: #fff; --focus: #ff9f1a; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1419; --surface: #182029; --text: #e6ebf0; --muted: #9aa7b4; --border: #324050; --accent: #5aa6ff; --accent-text: #08121c; } }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 36rem; margin: 10vh auto; padding: 1.5rem; background: var(--surface); border: 1px solid var(--border); border-radius: 10px; }
h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
p { margin: 0 0 1rem; }
code { overflow-wrap: anywhere; }
.muted { color: var(--muted); }
a.button { display: inline-block; padding: 0.5rem 1rem; border-radius: 6px; background: var(--accent); color: var(--accent-text); text-decoration: none; }
a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
</style>
</head>
<body>
<main>
<p class="muted">${escapeHtml(appName)}</p>
<h1>Page not found</h1>
<p>There is no page at <code>${shown}</code>. The link may be old, or the address mistyped.</p>
<p><a class="button" href="/">Go to the start page</a></p>
</main>
</body>
</html>
`;
}

/** The 404 answer: the HTML page for a browser navigation, `{ error: { code: 'not_found' } }` otherwise. */
export function sendNotFound(req: FastifyRequest, reply: FastifyReply, appName: string): void {
  const path = req.url.split('?')[0] ?? '/';
  if (wantsHtmlPage(req)) {
    void reply.status(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(notFoundPage(path, appName));
    return;
  }
  void reply.status(404).send(errorBody(new AppError(404, 'not_found', `No route for ${req.method} ${path}`)));
}
