import { describe, expect, it } from 'vitest';
import { seasonFolderLabel } from './path-preview.js';

describe('the season folder a followed show lists', () => {
  it('is the newest season its files went to, not Season 01', () => {
    expect(seasonFolderLabel('Season {season}', [4])).toBe('Season 04');
    expect(seasonFolderLabel('S{season_unpadded}', [4, 3, 4])).toBe('S4 (+ 1 earlier season)');
    expect(seasonFolderLabel('Season {season}', [1, 2, 4])).toBe('Season 04 (+ 2 earlier seasons)');
  });
  it('says NN while nothing is downloaded yet', () => {
    expect(seasonFolderLabel('Season {season}', [])).toBe('Season NN');
    expect(seasonFolderLabel('', [4])).toBe('');
  });
});
