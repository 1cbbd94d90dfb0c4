import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { IPC, type DesktopApi } from '../main/electron/ipc.js';

// The preload is compiled as tsc compiles it (CommonJS) and run the way a sandboxed preload runs:
// its `require` gets electron (mocked here: no binary) and nothing else.
const exposed = new Map<string, unknown>();
const invoke = vi.fn((..._args: unknown[]) => Promise.resolve(true));
const required: string[] = [];
const electron = { contextBridge: { exposeInMainWorld: (k: string, v: unknown) => exposed.set(k, v) }, ipcRenderer: { invoke } };
const source = fs.readFileSync(path.join(import.meta.dirname, 'index.cts'), 'utf8');
const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
const sandboxRequire = (id: string) => {
  required.push(id);
  if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
  return electron;
};
new Function('require', 'exports', 'module', 'process', js)(sandboxRequire, {}, { exports: {} }, { platform: 'linux' });

describe('preload bridge', () => {
  it('needs only electron, and exposes only window.desktop: a frozen object with a few typed functions', () => {
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['desktop']);
    const desktop = exposed.get('desktop') as DesktopApi;
    expect(Object.isFrozen(desktop)).toBe(true);
    expect(Object.keys(desktop).sort()).toEqual(['appInfo', 'isDesktopApp', 'openPage', 'platform']);
    expect(desktop).toMatchObject({ isDesktopApp: true, platform: 'linux' });
  });

  it('uses the channel names the main process handles', async () => {
    const desktop = exposed.get('desktop') as DesktopApi;
    await desktop.openPage('recordings');
    await desktop.appInfo();
    expect(invoke.mock.calls).toEqual([[IPC.openPage, 'recordings'], [IPC.appInfo]]);
  });
});
