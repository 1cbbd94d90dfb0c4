import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '../../core/paths.js';
import { registerWebApp } from '../../core/web-app.js';

/** The energy pages the single-page app routes by path; each answers index.html. */
export const UI_PAGES = ['/', '/wall', '/wall/solar', '/wall/home', '/wall/battery', '/wall/grid', '/trends', '/savings', '/settings', '/setup'] as const;

const NOT_BUILT = `The energy dashboard has not been built yet.

Run   npm run build:ui   in the project folder, then reload this page.
The API is available meanwhile: /api/snapshot, /api/state, /events.
`;

/**
 * Serves the built web UI (dist/renderer): hashed assets under /assets/ with a long cache, and
 * index.html for each page path (SPA fallback). Other unknown paths keep the JSON 404. The build
 * is looked up per request, so `npm run build:ui` while the service runs is picked up on reload.
 */
export async function registerWebUi(app: FastifyInstance, root = path.join(repoRoot, 'dist', 'renderer')): Promise<void> {
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, index: false });
  const built = () => fs.existsSync(path.join(root, 'index.html'));

  for (const page of UI_PAGES) {
    app.get(page, async (_req, reply) => {
      if (!built()) return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
    });
  }

  registerWebApp(app, root, 'energy.webmanifest');

  app.get('/assets/*', async (req, reply) => {
    const file = (req.params as { '*': string })['*'];
    return reply.sendFile(path.posix.join('assets', file), root, { immutable: true, maxAge: '365d' });
  });
}
