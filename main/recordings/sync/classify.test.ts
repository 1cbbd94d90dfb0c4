import { describe, expect, it } from 'vitest';
import { classifyDownload, overallStatus } from './classify.js';

const MB = 1024 * 1024;

describe('outcome classification (the spec table)', () => {
  it('recorded within the 1 MB tolerance is done with the actual size', () => {
    expect(classifyDownload({ recorded: true, actualSize: 930528256 - 48 }, 930528256)).toEqual({
      status: 'done', counter: 'downloaded', size: 930528256 - 48, error: null, complete: true,
    });
    expect(classifyDownload({ recorded: true, actualSize: 10 * MB - MB }, 10 * MB).status).toBe('done');
    expect(classifyDownload({ recorded: true, actualSize: 10 * MB - MB - 1 }, 10 * MB).status).toBe('partial');
  });

  it('recorded short by more than the tolerance is partial, counted failed, naming the byte gap', () => {
    const c = classifyDownload({ recorded: true, actualSize: 4 * MB, error: 'transfer interrupted: terminated' }, 10 * MB);
    expect(c).toMatchObject({ status: 'partial', counter: 'failed', size: 4 * MB, complete: false });
    expect(c.error).toContain(`short by ${6 * MB} bytes`);
    expect(c.error).toContain('next sync resumes');
  });

  it('recorded with an unknown actual size trusts the expected size', () => {
    expect(classifyDownload({ recorded: true, actualSize: null }, 5000)).toMatchObject({ status: 'done', size: 5000, error: null, complete: true });
  });

  it('recorded with an expected size <= 0 is done', () => {
    expect(classifyDownload({ recorded: true, actualSize: 1234 }, -1)).toMatchObject({ status: 'done', error: null, complete: true });
  });

  it('not recorded with an error is failed, size left alone, error stored', () => {
    expect(classifyDownload({ recorded: false, actualSize: null, error: 'the box answered HTTP 500' }, 5000)).toEqual({
      status: 'failed', counter: 'failed', size: undefined, error: 'the box answered HTTP 500', complete: false,
    });
  });

  it('not recorded with a warning is partial and counted skipped', () => {
    expect(classifyDownload({ recorded: false, actualSize: null, warning: 'currently recording' }, 5000)).toMatchObject({
      status: 'partial', counter: 'skipped', size: undefined, error: 'currently recording',
    });
  });

  it('honours a configured tolerance', () => {
    expect(classifyDownload({ recorded: true, actualSize: 900 }, 1000, 50).status).toBe('partial');
    expect(classifyDownload({ recorded: true, actualSize: 960 }, 1000, 50).status).toBe('done');
  });

  it('a run is partial only when something failed (truncations included), skips do not count', () => {
    expect(overallStatus({ failed: 0 })).toBe('ok');
    expect(overallStatus({ failed: 1 })).toBe('partial');
  });

  it('the full row for each case of the table, counters included', () => {
    expect(classifyDownload({ recorded: true, actualSize: null }, 5000)).toEqual({ status: 'done', counter: 'downloaded', size: 5000, error: null, complete: true });
    expect(classifyDownload({ recorded: true, actualSize: 1234 }, 0)).toEqual({ status: 'done', counter: 'downloaded', size: 1234, error: null, complete: true });
    // Expected size 0 and actual unknown: nothing to store (not the expected 0).
    expect(classifyDownload({ recorded: true, actualSize: null }, 0)).toEqual({ status: 'done', counter: 'downloaded', size: undefined, error: null, complete: true });
    expect(classifyDownload({ recorded: false, actualSize: null, warning: 'currently recording' }, 5000)).toEqual({
      status: 'partial', counter: 'skipped', size: undefined, error: 'currently recording', complete: false,
    });
  });

  it('not recorded with neither error nor warning is a failure with a generic message; an error wins over a warning', () => {
    expect(classifyDownload({ recorded: false, actualSize: null }, 5000)).toEqual({ status: 'failed', counter: 'failed', size: undefined, error: 'download failed', complete: false });
    expect(classifyDownload({ recorded: false, actualSize: null, error: 'the box went away', warning: 'currently recording' }, 5000)).toMatchObject({
      status: 'failed', counter: 'failed', error: 'the box went away',
    });
  });

  it('the byte-gap message names sizes and the cause, when there is one', () => {
    expect(classifyDownload({ recorded: true, actualSize: 4 * MB, error: 'transfer interrupted' }, 10 * MB).error).toBe(
      `short by ${6 * MB} bytes: got ${4 * MB} of ${10 * MB} (transfer interrupted); the next sync resumes`,
    );
    expect(classifyDownload({ recorded: true, actualSize: 4 * MB }, 10 * MB).error).toBe(`short by ${6 * MB} bytes: got ${4 * MB} of ${10 * MB}; the next sync resumes`);
  });

  it('an item skipped for lack of disk space makes the run partial', () => {
    expect(overallStatus({ failed: 0, no_space: 0 })).toBe('ok');
    expect(overallStatus({ failed: 0, no_space: 1 })).toBe('partial');
  });
});
