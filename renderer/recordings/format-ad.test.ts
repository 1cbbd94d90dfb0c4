import { describe, expect, it } from 'vitest';
import { adLabel } from './format.js';

// Issue 45: the recordings table says how many breaks a marked recording has.
describe('the ad column of the recordings table', () => {
  const breaks = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ start: i * 100, end: i * 100 + 30 })));

  it('shows "marked (3 breaks)" for a recording marked with three breaks, and one break in the singular', () => {
    expect(adLabel({ ad_status: 'marked', ad_breaks_json: breaks(3) })).toBe('marked (3 breaks)');
    expect(adLabel({ ad_status: 'marked', ad_breaks_json: breaks(1) })).toBe('marked (1 break)');
  });

  it('names the other outcomes in words, a failed mark among them', () => {
    expect(adLabel({ ad_status: 'mark_failed', ad_breaks_json: null })).toBe('mark failed');
    expect(adLabel({ ad_status: 'cut', ad_breaks_json: breaks(2) })).toBe('ads cut');
    expect(adLabel({ ad_status: 'marked', ad_breaks_json: 'not json' })).toBe('marked');
  });
});
