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

describe('naming details a user would see in the library', () => {
  const messageOf = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return (err as Error).message;
    }
    return 'ok';
  };

  it('every character Windows forbids becomes a space; runs of spaces collapse; trailing dots go', () => {
    expect(cleanName('a:b*c?d"e<f>g|h')).toBe('a b c d e f g h');
    expect(cleanName('  Doctor   Who\t\t(2005)  ')).toBe('Doctor Who (2005)');
    expect(cleanName('Mr. Robot...')).toBe('Mr. Robot');
    expect(cleanName('... Hidden . ')).toBe('Hidden');
    expect(cleanName('\u007fDEL')).toBe('DEL');
    expect(cleanName('')).toBe('Untitled');
    expect(cleanName(' / ')).toBe('Untitled');
  });

  it('caps a name at 180 characters, then trims what the cut leaves at its end', () => {
    expect(cleanName('x'.repeat(180))).toBe('x'.repeat(180));
    expect(cleanName('x'.repeat(181))).toBe('x'.repeat(180));
    expect(cleanName(`${'x'.repeat(178)}. y`)).toBe('x'.repeat(178));
    // Characters, not UTF-16 units: 180 emoji survive whole.
    expect([...cleanName('😀'.repeat(200))].length).toBe(180);
  });

  it('the show part is capped at 80 bytes, the whole stem at 180 bytes, cut on a character boundary', () => {
    const name = recordingFileName('S'.repeat(200), 'x', 2, 11, 'T'.repeat(300));
    expect(name).toBe(`${'S'.repeat(80)} - S02E11 - ${'T'.repeat(180 - 80 - ' - S02E11 - '.length)}.ts`);
    expect(recordingFileName('Show', 'x', 1, 1, 'é'.repeat(200))).toBe(`Show - S01E01 - ${'é'.repeat((180 - 'Show - S01E01 - '.length) / 2)}.ts`);
    expect(recordingFileName('Show', 'x', 1, 1, `${'a'.repeat(180 - 'Show - S01E01 - '.length - 1)}€`)).toBe(`Show - S01E01 - ${'a'.repeat(180 - 'Show - S01E01 - '.length - 1)}.ts`);
    // Exactly 180 bytes is kept whole.
    const exact = 'b'.repeat(180 - 'Show - S01E01 - '.length);
    expect(recordingFileName('Show', 'x', 1, 1, exact)).toBe(`Show - S01E01 - ${exact}.ts`);
    // A cut that ends on a space or dot trims it.
    const spaced = `${'c'.repeat(180 - 'Show - S01E01 - '.length - 1)} d`;
    expect(recordingFileName('Show', 'x', 1, 1, spaced)).toBe(`Show - S01E01 - ${'c'.repeat(180 - 'Show - S01E01 - '.length - 1)}.ts`);
    expect(recordingFileName('Show', 'b'.repeat(300), null, 1, 'ignored')).toBe(`${'b'.repeat(180)}.ts`);
    expect(recordingFileName('Show', 'Box title', 1, null, 'ignored')).toBe('Box title.ts');
    expect(recordingFileName('Show', 'x', 10, 100, '  ')).toBe('Show - S10E100.ts');
  });

  it('the id suffix: brackets become underscores, at most 32 bytes, on the stem without .ts', () => {
    expect(withIdSuffix('a.ts', 'x[1]y')).toBe('a [x_1_y].ts');
    expect(withIdSuffix('a.ts', '1'.repeat(40))).toBe(`a [${'1'.repeat(32)}].ts`);
    expect(withIdSuffix('a.tsx', '7')).toBe('a.tsx [7].ts');
    expect(withIdSuffix('a.ts.ts', '7')).toBe('a.ts [7].ts');
  });

  it('folder checks say what is wrong, with the field', () => {
    expect(messageOf(() => checkShowPaths('/media/tv', 'a\0b', ''))).toBe('Folder name: must not contain NUL');
    expect(messageOf(() => checkShowPaths('/media/tv', 'Show', 'Season\0'))).toBe('Season folder: must not contain NUL');
    expect(fieldOf(() => checkShowPaths('/media/tv', '   ', ''))).toBe('400:dest_folder');
    expect(messageOf(() => checkShowPaths('/media/tv', '   ', ''))).toBe('Folder name: must not be empty');
    expect(messageOf(() => checkShowPaths('/media/tv', '/x', ''))).toBe('Folder name: must be relative to the media root (no leading slash or drive)');
    expect(messageOf(() => checkShowPaths('/media/tv', 'd:x', ''))).toBe('Folder name: must be relative to the media root (no leading slash or drive)');
    expect(messageOf(() => checkShowPaths('/media/tv', 'a/ .. /b', ''))).toBe('Folder name: must not contain ".." segments');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', '   '))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', 'Part 1: x'))).toBe('ok');
    expect(fieldOf(() => checkShowPaths('/media/tv', 'ab:', ''))).toBe('ok');
  });

  it('a template that climbs only once rendered is refused', () => {
    // `{season_unpadded}` alone never climbs; the rendered folder is checked for both a season and none.
    expect(fieldOf(() => checkShowPaths('/media/tv', 'Show', '{season}/..'))).toBe('400:season_template');
  });

  it('isInside: the root itself is inside, a sibling or parent is not', () => {
    expect(isInside('/media/tv', '/media/tv')).toBe(true);
    expect(isInside('/media/tv', '/media/tv/')).toBe(true);
    expect(isInside('/media/tv', '/media/tv/Show/x.ts')).toBe(true);
    expect(isInside('/media/tv', '/media/tv/../tv2/x')).toBe(false);
    expect(isInside('/media/tv', '/other')).toBe(false);
  });

  it('a destination that would leave the media root is refused', () => {
    expect(() => destinationPath({ mediaRoot: '/m', destFolder: '../x', seasonTemplate: '', show: 'S', boxTitle: 'b', season: null, episode: null, episodeTitle: '' })).toThrow(
      'outside the media root',
    );
    expect(destinationPath({ mediaRoot: '/m', destFolder: 'TV', seasonTemplate: 'Season {season_unpadded}', show: 'S', boxTitle: 'Box: title', season: null, episode: null, episodeTitle: '' })).toBe(
      '/m/TV/Season 0/Box title.ts',
    );
  });
});
