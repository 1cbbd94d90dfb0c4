import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from './logger.js';
import { createSettingsStore } from './settings-store.js';
import { writeFileAtomic } from './atomic-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-store-'));
  dirs.push(d);
  return d;
}

const schema = z.object({ port: z.number().int().default(5163), name: z.string().default('home') }).strict();
const open = (file: string, onUnreadable?: 'reseed' | 'keep') =>
  createSettingsStore({ file, schema, seed: () => ({ port: 5163, name: 'seeded' }), logger: silentLogger, onUnreadable, now: () => 1_700_000_000_000 });

describe('settings store: unusable files', () => {
  for (const [what, content] of [
    ['truncated', '{"port": 51'],
    ['garbled', '\u0000\u0000\u0000\u0000'],
    ['empty', ''],
  ] as const) {
    it(`a ${what} file does not stop the start: seeds are used, the file is rewritten, the original is kept aside`, () => {
      const dir = tmp();
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, content);
      const store = open(file);
      expect(store.get()).toEqual({ port: 5163, name: 'seeded' });
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ port: 5163, name: 'seeded' });
      const kept = path.join(dir, 'settings.json.corrupt-1700000000000');
      expect(fs.readFileSync(kept, 'utf8')).toBe(content);
      expect(store.damaged).toBeNull();
    });
  }

  it('a valid JSON file that fails the schema is kept aside as .invalid-<ms> too', () => {
    const dir = tmp();
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{"port":"x"}');
    expect(open(file).get()).toEqual({ port: 5163, name: 'seeded' });
    expect(fs.readFileSync(path.join(dir, 'settings.json.invalid-1700000000000'), 'utf8')).toBe('{"port":"x"}');
  });

  it('a second unusable file in the same millisecond does not overwrite the first copy', () => {
    const dir = tmp();
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{');
    open(file);
    fs.writeFileSync(file, '{{');
    open(file);
    expect(fs.readFileSync(path.join(dir, 'settings.json.corrupt-1700000000000'), 'utf8')).toBe('{');
    expect(fs.readFileSync(path.join(dir, 'settings.json.corrupt-1700000000000-1'), 'utf8')).toBe('{{');
  });

  it("with onUnreadable 'keep' the file is left untouched and the store says it is damaged", () => {
    const dir = tmp();
    const file = path.join(dir, 'security.json');
    fs.writeFileSync(file, '{"passc');
    const store = open(file, 'keep');
    expect(store.damaged).toBe(path.join(dir, 'security.json.corrupt-1700000000000'));
    expect(fs.readFileSync(file, 'utf8')).toBe('{"passc');
    expect(fs.readFileSync(store.damaged!, 'utf8')).toBe('{"passc');
  });
});

describe('stale temp files from a kill mid-write', () => {
  it('are removed at start when their writer is gone (or is this process); live writers and other files are left alone', () => {
    const dir = tmp();
    const file = path.join(dir, 'settings.json');
    writeFileAtomic(file, JSON.stringify({ port: 6000, name: 'kept' }));
    // What a kill between the temp write and the rename leaves behind.
    const deadPid = 4_194_304 + 12_345; // above Linux's pid_max: no such process
    const stale = [`.settings.json.${deadPid}.1700000000000.tmp`, `.settings.json.${process.pid}.1700000000001.tmp`];
    const live = `.settings.json.${process.ppid}.1700000000002.tmp`;
    const unrelated = ['.other.json.1.2.tmp', 'settings.json.bak', '.settings.json.notes.tmp'];
    for (const name of [...stale, live, ...unrelated]) fs.writeFileSync(path.join(dir, name), '{"half":');

    const store = open(file);
    expect(store.get()).toEqual({ port: 6000, name: 'kept' });
    const left = fs.readdirSync(dir).sort();
    for (const name of stale) expect(left).not.toContain(name);
    expect(left).toEqual(['settings.json', live, ...unrelated].sort());
  });
});
