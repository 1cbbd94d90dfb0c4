import type { SimItem, SimShow } from './box-model.js';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** A show folder of `count` episodes with real-looking titles and 9-digit string ids from `firstId`. */
export function sampleShow(title: string, firstId: number, count: number, length: (i: number) => number, season = 1): SimShow {
  const items: SimItem[] = [];
  for (let i = 0; i < count; i++) {
    const day = DAYS[i % 7]!;
    items.push({
      id: String(firstId + i),
      title: `S${season} E${i + 1} - Episode ${i + 1} & More - ${day} ${String((i % 28) + 1).padStart(2, '0')} Jul`,
      length: length(i),
      duration: `0:${29 + (i % 2)}:${i % 60}`,
      description: `${title}, season ${season} episode ${i + 1}.`,
    });
  }
  return { title, items };
}

/** The library the demo box serves: three shows, one episode still recording, downloads slow enough to watch. */
export function demoLibrary(): SimShow[] {
  const mb = 1024 * 1024;
  const broke = sampleShow('2 Broke Girls', 903106335, 4, (i) => (12 + i * 3) * mb, 4);
  const gardening = sampleShow('Gardening Australia', 585587764, 3, (i) => (8 + i * 2) * mb, 33);
  gardening.items[2]!.recording = 'size-unknown';
  const chase = sampleShow('The Chase Australia', 712000100, 3, () => 6 * mb);
  for (const s of [broke, gardening, chase]) for (const it of s.items) it.bytesPerSecond = 4 * mb;
  return [broke, gardening, chase, { title: 'Movies & Specials', items: [] }];
}
