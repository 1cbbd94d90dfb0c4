import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The packaging config checked offline: electron-builder's own schema validation (the function
// `electron-builder` runs before any build) plus what the issue requires of the package.
const root = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(k: string, v: unknown): void }): Promise<void>;
};
const config = yaml.load(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a YAML document
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };
const debug = { isEnabled: false, add: () => undefined };

describe('electron-builder.yml (validated offline)', () => {
  it('passes electron-builder’s schema, which does reject a misspelt option', async () => {
    await expect(validateConfiguration(config, debug)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, mac: { ...config.mac, dockIcon: false } }, debug)).rejects.toThrow(/Invalid configuration/);
  });

  it('builds AppImage and deb, NSIS and a tray-only dmg (no Dock icon)', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.linux.maintainer).toMatch(/<.+@.+>/); // deb refuses to build without one
    expect(config.win.target).toBe('nsis');
    expect(config.mac.target).toBe('dmg');
    expect(config.mac.extendInfo).toMatchObject({ LSUIElement: true });
    expect(config.publish).toBeNull();
  });

  it('ships the compiled app, the pages, assets and the Electron build of better-sqlite3, unpacked from the asar', () => {
    expect(config.files).toEqual(expect.arrayContaining(['dist/**', 'assets/**', 'native/electron/**', 'package.json']));
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', 'native/electron/**']));
    // node_modules stays built for Node (the tests run there): no in-place rebuild at packaging.
    expect(config.npmRebuild).toBe(false);
    expect(config.extraMetadata.main).toBe(pkg.main);
    expect(fs.existsSync(path.join(root, pkg.main.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
    for (const icon of [config.linux.icon, config.win.icon, config.mac.icon]) expect(fs.existsSync(path.join(root, icon))).toBe(true);
  });

  it('npm run dist builds the app and the native module first, for the current platform only', () => {
    expect(pkg.scripts.dist).toBe('npm run build && npm run native:electron && electron-builder');
    expect(pkg.scripts.app).toMatch(/npm run native:electron && electron \.$/);
  });
});
