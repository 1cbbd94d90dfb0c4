/**
 * A show's ad options: the values the store and the API accept, and their names and one-sentence
 * explanations, which the show schema carries (`.meta`) and the show form shows. No imports: the
 * pages read this module as it is.
 */

/** Off, detect, mark, cut: what happens to a new recording's ad breaks. */
export const AD_MODES = ['off', 'detect', 'mark', 'cut'] as const;
export type AdMode = (typeof AD_MODES)[number];

/** Mark mode's chaptered copy: none (the EDL file only), a `.mkv` beside the `.ts`, or a `.mkv` in place of it (the `.ts` kept in a hidden folder). */
export const MARK_CHAPTERS = ['none', 'beside', 'in_place'] as const;
export type MarkChapters = (typeof MARK_CHAPTERS)[number];

export const AD_MODE_TEXT: Record<AdMode, { label: string; sentence: string }> = {
  off: { label: 'Off', sentence: 'New recordings are not scanned for ads.' },
  detect: { label: 'Detect breaks', sentence: 'The breaks are found and listed here; the recording is left as it is.' },
  mark: { label: 'Mark breaks', sentence: 'An EDL file beside the recording lets Kodi (and Jellyfin with a plugin) skip the breaks; the recording itself is left as it is.' },
  cut: { label: 'Cut breaks out', sentence: 'The breaks are removed from the recording; the uncut copy is kept for a while.' },
};

export const MARK_CHAPTERS_TEXT: Record<MarkChapters, { label: string; sentence: string }> = {
  none: { label: 'EDL file only', sentence: 'Only the EDL file is written.' },
  beside: { label: 'Chaptered copy beside the recording', sentence: 'Also a .mkv copy with "Programme" and "Commercial" chapters (for Plex, Jellyfin, Emby, VLC), made without re-encoding; it needs as much disk space again.' },
  in_place: {
    label: 'Chaptered copy in place of the recording',
    sentence: 'The .mkv copy with chapters takes the recording\u2019s place in the library, so each episode is listed once; the untouched .ts is kept in a hidden folder beside it (.recording-originals) that media servers skip, and stays until you delete it.',
  },
};

/** The show fields' names and explanations in words. */
export const SHOW_AD_FIELDS = {
  ad_mode: { label: 'Ad removal', description: 'What happens to the ad breaks of new recordings (with ad removal switched on in the settings).' },
  mark_chapters: { label: 'Chapters (Mark mode)', description: 'Whether Mark also writes a copy of the recording with chapters at the breaks, and whether it goes beside the recording or in its place.' },
  mark_counts_as_cut: {
    label: 'Marked counts as cut for box deletion',
    description: 'Lets a marked recording be deleted from the box as a verified cut would be; otherwise the box copy is kept.',
  },
} as const;
