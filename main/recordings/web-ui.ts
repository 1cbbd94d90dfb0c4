import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { repoRoot } from '../core/paths.js';
import { registerWebApp } from '../core/web-app.js';

/** The recordings pages the single-page app routes by path; each answers the recordings index.html. */
export const RECORDINGS_UI_PAGES = ['/', '/recordings', '/shows', '/history', '/settings', '/setup'] as const;

/** The default build folder (`npm run build:ui`); the recordings entry is `recordings/index.html` in it. */
export const DEFAULT_UI_DIR = path.join(repoRoot, 'dist', 'renderer');
const INDEX = path.posix.join('recordings', 'index.html');

const NOT_BUILT = `The recordings pages have not been built yet.

Run   npm run build:ui   in the project folder, then reload this page.
The API is available meanwhile: /api/recordings, /api/shows, /api/sync-runs, /api/settings.
`;

/**
 * Serves the built recordings pages from the shared web build: hashed assets under /assets/ with a
 * long cache, the recordings index.html for each page path (SPA fallback). Other unknown paths keep
 * the API's JSON 404. The build is looked up per request, so a rebuild is picked up on reload.
 */
export async function registerRecordingsUi(app: FastifyInstance, root = DEFAULT_UI_DIR): Promise<void> {
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true, index: false });
  const built = () => fs.existsSync(path.join(root, INDEX));

  for (const page of RECORDINGS_UI_PAGES) {
    app.get(page, async (_req, reply) => {
      if (!built()) return reply.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
      return reply.header('cache-control', 'no-cache').sendFile(INDEX, root, { cacheControl: false });
    });
  }

  registerWebApp(app, root, 'recordings.webmanifest');

  app.get('/assets/*', async (req, reply) => {
    const file = (req.params as { '*': string })['*'];
    return reply.sendFile(path.posix.join('assets', file), root, { immutable: true, maxAge: '365d' });
  });
}
