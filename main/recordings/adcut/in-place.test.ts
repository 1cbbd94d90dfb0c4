import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/harness.js';
import { bringOriginalBack, keepOriginalAside, keptPathOf, MoveRefused } from './in-place.js';

describe('moving the original aside never overwrites a file', () => {
  const root = tempDir('inplace-');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const recording = (name: string, text: string) => {
    const file = path.join(root, name, 'Show - S01E01.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };

  it('a file already in the originals folder under that name stops the move: both stay as they were', () => {
    const file = recording('taken', 'the recording');
    fs.mkdirSync(path.dirname(keptPathOf(file)), { recursive: true });
    fs.writeFileSync(keptPathOf(file), 'someone else\u2019s file');
    expect(() => keepOriginalAside(file, root)).toThrow(MoveRefused);
    expect(fs.readFileSync(file, 'utf8')).toBe('the recording');
    expect(fs.readFileSync(keptPathOf(file), 'utf8')).toBe('someone else\u2019s file');
  });

  it('a file at the recording\u2019s path stops bringing the original back: both stay as they were', () => {
    const file = recording('back', 'the recording');
    const kept = keepOriginalAside(file, root);
    fs.writeFileSync(file, 'a new file of that name');
    expect(() => bringOriginalBack(file, kept, root)).toThrow(MoveRefused);
    expect(fs.readFileSync(kept, 'utf8')).toBe('the recording');
    expect(fs.readFileSync(file, 'utf8')).toBe('a new file of that name');
  });
});
