import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The web UI: React with Vite's built-in oxc JSX transform (no React plugin, so no fast refresh in
 * dev; `npm run build:ui` is the supported path). Two entries sharing the component kit and theme:
 * the energy pages (index.html, served by the energy service) and the recordings pages
 * (recordings/index.html, served by the recording service), both from dist/renderer.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist', 'renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: {
        energy: path.resolve(import.meta.dirname, 'renderer', 'index.html'),
        recordings: path.resolve(import.meta.dirname, 'renderer', 'recordings', 'index.html'),
      },
    },
  },
  server: { host: '127.0.0.1' },
});
