import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

// The Electron binary downloads on first launch from a host these machines cannot reach.
// Where it exists (a developer's desktop), this spec launches the real tray app.
const electronDir = path.resolve(import.meta.dirname, '..', 'node_modules', 'electron');
const pathFile = path.join(electronDir, 'path.txt');
const binary = fs.existsSync(pathFile) ? path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()) : null;
const reason = 'no Electron binary on this machine (node_modules/electron/path.txt missing): the shell is covered by main/electron/shell.test.ts with electron mocked';

test.describe('tray app (real Electron)', () => {
  test.skip(!binary || !fs.existsSync(binary), reason);
  if (!binary) console.log(`electron.spec: skipped: ${reason}`);

  test('opens the dashboard from the services it started', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-e2e-'));
    const app = await electron.launch({
      executablePath: binary!,
      args: [path.resolve(import.meta.dirname, '..')],
      env: { ...process.env, DATA_DIR: dataDir, BIND_HOST: '127.0.0.1', SERVER_PORT: '0', PORT: '0' },
    });
    await app.evaluate(({ app: a }) => a.emit('second-instance'));
    const win = await app.firstWindow();
    await expect(win).toHaveURL(/127\.0\.0\.1/);
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
