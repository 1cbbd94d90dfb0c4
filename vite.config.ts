import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The web UI (energy pages): React with Vite's built-in oxc JSX transform (no React plugin, so no
 * fast refresh in dev; `npm run build:ui` is the supported path). Served by the energy service
 * from dist/renderer.
 */
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'renderer'),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist', 'renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
  },
  server: { host: '127.0.0.1' },
});
