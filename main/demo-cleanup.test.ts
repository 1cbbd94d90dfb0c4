import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeDemoFolder } from './demo-cleanup.js';

describe('what Ctrl+C on the demo says it removed', () => {
  it('counts files, bytes and downloaded recordings, then removes the folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-cleanup-'));
    fs.mkdirSync(path.join(dir, 'energy'));
    fs.writeFileSync(path.join(dir, 'energy', 'history.db'), Buffer.alloc(1_500_000));
    fs.mkdirSync(path.join(dir, 'recordings-demo', 'media', 'Show', 'Season 04'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'recordings-demo', 'media', 'Show', 'Season 04', 'a.ts'), Buffer.alloc(1_000_000));
    fs.writeFileSync(path.join(dir, 'recordings-demo', 'media', 'Show', 'Season 04', 'a.ts.orig'), Buffer.alloc(500_000));
    const line = removeDemoFolder(dir);
    expect(line).toBe(`Removed the demo data folder ${dir}: 3 files, 3.0 MB (energy history and settings, the recordings state and 2 downloaded recording files).`);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
