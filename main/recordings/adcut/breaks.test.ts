import { describe, expect, it } from 'vitest';
import { boundaryCount, keepSegments, mergeBreaks, parseEdl, verifyToleranceSeconds } from './breaks.js';
import { forcedIniText } from './detector-config.js';
import { scanTimeoutMs } from './detect.js';
import { scanPercent } from '../progress.js';

describe('edit lists, keep segments and the limits of the spec', () => {
  it('parses comskip edit lists (tab-separated seconds, type 0 or 3) and refuses anything else', () => {
    expect(parseEdl('130.48\t162.44\t0\n\n600.00\t650.12\t3\r\n')).toEqual([
      { start: 130.48, end: 162.44 },
      { start: 600, end: 650.12 },
    ]);
    expect(parseEdl('')).toEqual([]);
    expect(() => parseEdl('12.0\tabc\t0\n')).toThrow(/unreadable/);
    expect(() => parseEdl('<html>oops</html>')).toThrow(/unreadable/);
    expect(() => parseEdl('1\t2\t0\n'.repeat(100_000))).toThrow(/too large/);
  });

  it('merges overlapping and touching breaks, clamps them to the recording and inverts them', () => {
    const breaks = [
      { start: 600, end: 700 },
      { start: -5, end: 10 },
      { start: 650, end: 720 },
      { start: 720, end: 730 },
      { start: 1790, end: 2000 },
    ];
    expect(mergeBreaks(breaks, 1800)).toEqual([
      { start: 0, end: 10 },
      { start: 600, end: 730 },
      { start: 1790, end: 1800 },
    ]);
    expect(keepSegments(breaks, 1800)).toEqual([
      { start: 10, end: 600 },
      { start: 730, end: 1790 },
    ]);
    // A break at the very start or end has one cut point, one in the middle two.
    expect(boundaryCount(breaks, 1800)).toBe(1 + 2 + 1);
    expect(keepSegments([{ start: 0, end: 1800 }], 1800)).toEqual([]);
    expect(keepSegments([], 1800)).toEqual([{ start: 0, end: 1800 }]);
  });

  it('verifies within max(5, 2 x boundaries) seconds', () => {
    expect(verifyToleranceSeconds(0)).toBe(5);
    expect(verifyToleranceSeconds(2)).toBe(5);
    expect(verifyToleranceSeconds(3)).toBe(6);
    expect(verifyToleranceSeconds(10)).toBe(20);
  });

  it('times a scan out after 1.5 x the duration, never under 60 minutes nor over 6 hours', () => {
    expect(scanTimeoutMs(30 * 60)).toBe(60 * 60_000);
    expect(scanTimeoutMs(3 * 3600)).toBe(4.5 * 3600_000);
    expect(scanTimeoutMs(5 * 3600)).toBe(6 * 3600_000);
    expect(scanTimeoutMs(null)).toBe(6 * 3600_000);
  });

  it('reports scan progress at the 0.5 realtime factor, holding at 99 on overrun', () => {
    // A 30-minute recording is expected to scan in 15 minutes.
    expect(scanPercent(0, 1800)).toBe(0);
    expect(scanPercent(7.5 * 60_000, 1800)).toBe(50);
    expect(scanPercent(15 * 60_000, 1800)).toBe(99);
    expect(scanPercent(60 * 60_000, 1800)).toBe(99);
  });

  it('forces edit-list output first and neutralises every other mention, comments included', () => {
    const text = forcedIniText('; output_edl=0 would win if it came first\noutput_edl=0\ndetect_method=1\nOUTPUT_EDL=0\n');
    const firstKey = /[a-z_]+=/i.exec(text)?.[0];
    expect(firstKey).toBe('output_edl=');
    expect(text.indexOf('output_edl=1')).toBeLessThan(text.search(/detect_method/));
    expect(text.match(/output_edl=/gi)).toHaveLength(1);
    expect(text).toContain('detect_method=1');
    expect(Buffer.byteLength(forcedIniText('x'.repeat(200_000)))).toBeLessThanOrEqual(60_000);
  });
});
