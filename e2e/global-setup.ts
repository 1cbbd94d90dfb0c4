import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/** The specs run against the built UI; build it when `playwright test` runs without `npm run build:ui`. */
export default async function globalSetup(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '..');
  if (fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) return;
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
