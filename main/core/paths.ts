import os from 'node:os';
import path from 'node:path';

export const APP_NAME = 'home-lan-bridge';

/** The per-user application data folder, as each desktop platform names it. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.DATA_DIR) return path.resolve(env.DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_NAME);
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), APP_NAME);
}

/** The repository (or packaged app) root: two levels up from main/core, past `dist/` when compiled. */
export const repoRoot = ((): string => {
  const up = path.resolve(import.meta.dirname, '..', '..');
  return path.basename(up) === 'dist' ? path.dirname(up) : up;
})();
