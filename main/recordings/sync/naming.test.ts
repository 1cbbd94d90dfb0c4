import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { checkShowPaths, cleanName, destinationPath, isInside, recordingFileName, renderSeasonFolder, withIdSuffix } from './naming.js';

const fieldOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? `${err.status}:${err.field}` : 'other';
  }
  return 'ok';
};

describe('season folder and file naming', () => {
  it('substitutes the season placeholders, with 00/0 for a missing season', () => {
    expect(renderSeasonFolder('Season {season}', 4)).toBe('Season 04');
    expect(renderSeasonFolder('S{season_padded}-{season_unpadded}', 12)).toBe('S12-12');
    expect(renderSeasonFolder('Season {season}', null)).toBe('Season 00');
    expect(renderSeasonFolder('{season_unpadded}', null)).toBe('0');
  });

  it('names a file Show - S01E02 - title.ts, else the cleaned box title', () => {
    expect(recordingFileName('2 Broke Girls', 'x', 4, 2, 'And the DJ Face')).toBe('2 Broke Girls - S04E02 - And the DJ Face.ts');
    expect(recordingFileName('News', 'ABC News: 7pm / Late?', null, null, '')).toBe('ABC News 7pm Late.ts');
    expect(recordingFileName('Show', 'x', 1, 3, '')).toBe('Show - S01E03.ts');
    expect(cleanName('..')).toBe('Untitled');
  });

  it('builds the destination inside the media root', () => {
    expect(
      destinationPath({ mediaRoot: '/m', destFolder: 'TV/Show', seasonTemplate: 'Season {season}', show: 'Show', boxTitle: 'x', season: 1, episode: 2, episodeTitle: 'Pilot' }),
    ).toBe('/m/TV/Show/Season 01/Show - S01E02 - Pilot.ts');
  });
});

describe('show path validation', () => {
  it('accepts folders inside the media root', () => {
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Comedy/Show', 'Season {season}'))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', ''))).toBe('ok');
  });

  it('rejects .. segments, leading slashes and escapes with a 400 naming the field', () => {
    expect(fieldOf(() => checkShowPaths('/media/tv', '../etc', 'Season {season}'))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show/../../x', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', '/etc', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', '\\\\server\\share', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'C:\\x', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', '', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', '../Season {season}'))).toBe('400:season_template');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', '/abs'))).toBe('400:season_template');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', 'a/..\\..'))).toBe('400:season_template');
  });

  it('accepts names that merely start with two dots: only ".." as a whole segment climbs', () => {
    expect(fieldOf(() => checkShowPaths('/media/tv', '..foo', 'Season {season}'))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Comedy/..hidden gems', '..Season {season}'))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show...', '...'))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', '..', ''))).toBe('400:dest_folder');
    expect(fieldOf(() => checkShowPaths('/media/tv', '..foo/..', ''))).toBe('400:dest_folder');
    expect(isInside('/media/tv', '/media/tv/..foo/x')).toBe(true);
    expect(isInside('/media/tv', '/media/tvx')).toBe(false);
    expect(isInside('/media/tv', '/media')).toBe(false);
  });
});

describe('box text used in a path', () => {
  it('turns separators, NUL and control characters into spaces and strips leading dots', () => {
    expect(cleanName('../../etc/x')).toBe('etc x');
    expect(cleanName('..\\..\\Windows\\x')).toBe('Windows x');
    expect(cleanName('/etc/passwd')).toBe('etc passwd');
    expect(cleanName('a\u0000b\u0007c\nd')).toBe('a b c d');
    expect(cleanName('.')).toBe('Untitled');
  });

  it('caps a very long title: the file name stays under 255 bytes, multi-byte characters included', () => {
    const name = recordingFileName('Show', 'x', 1, 2, 'é'.repeat(100_000));
    expect(Buffer.byteLength(name)).toBeLessThan(255 - '.partial'.length);
    expect(name.startsWith('Show - S01E02 - éé')).toBe(true);
    expect(Buffer.byteLength(withIdSuffix(name, '9'.repeat(1000)) + '.partial')).toBeLessThanOrEqual(255);
    expect(Buffer.byteLength(recordingFileName('x'.repeat(5000), 'y', null, null, ''))).toBeLessThan(255);
  });

  it('cleans the box id in the duplicate-name suffix: it can never add a folder', () => {
    for (const id of ['../../../../x', '..\\..\\x', '/etc/x', 'a\u0000b', '..', '[x]']) {
      const file = withIdSuffix('/m/Show/Season 01/Show - S01E01.ts', id);
      expect(file.startsWith('/m/Show/Season 01/Show - S01E01 [')).toBe(true);
      expect(file.endsWith('].ts')).toBe(true);
      const name = file.slice('/m/Show/Season 01/'.length);
      expect(name.includes('/') || name.includes('\\') || name.includes('\u0000')).toBe(false);
    }
    expect(withIdSuffix('/m/S/a.ts', '903106335')).toBe('/m/S/a [903106335].ts');
  });
});
