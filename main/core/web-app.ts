import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * What makes a service's pages an installable web app (both services call this beside their page
 * routes; @fastify/static must already be registered with `decorateReply`):
 *   GET /manifest.webmanifest  the service's own manifest (name, icons, start page)
 *   GET /sw.js                 the service worker that keeps the last state for offline opening;
 *                              never cached by HTTP, so a new build's worker is picked up at once
 *   GET /icons/<name>.png      the home-screen icons
 * All come from the web build (`npm run build:ui` copies renderer/public there); a missing file is
 * the usual JSON 404.
 */
export function registerWebApp(app: FastifyInstance, root: string, manifest: string): void {
  app.get('/manifest.webmanifest', async (_req, reply) => {
    return reply.header('cache-control', 'no-cache').type('application/manifest+json; charset=utf-8').sendFile(manifest, root, { cacheControl: false });
  });
  app.get('/sw.js', async (_req, reply) => {
    return reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').sendFile('sw.js', root, { cacheControl: false });
  });
  app.get('/icons/:name', async (req, reply) => {
    const name = (req.params as { name: string }).name;
    if (!/^[a-z0-9-]{1,40}\.png$/.test(name)) return reply.callNotFound();
    return reply.sendFile(path.posix.join('icons', name), root, { maxAge: '7d' });
  });
}
