import { describe, expect, it } from 'vitest';
import type { RecordingRow } from '../store/recordings-store.js';
import type { Show } from '../store/shows-store.js';
import { cloudAccountOf, keepReason } from './box-delete.js';

// spec/recording-sync.md (delete from the box): only for shows that ask for it, only after a
// download, never twice; with ad removal, only after a verified cut or no breaks; with a media
// server, only after its refresh succeeded. The reason a copy stays is what the log shows.
const row = (over: Partial<RecordingRow> = {}): RecordingRow =>
  ({ box_id: '7', status: 'done', file_path: '/media/tv/Show/a.ts', purged_at: null, ad_status: 'cut', ...over }) as RecordingRow;
const show = (over: Partial<Show> = {}): Show => ({ delete_after_download: true, ad_mode: 'cut', ...over }) as Show;
const adOn = { ad_removal_enabled: true, media_server_url: '' };

describe('why a box copy stays', () => {
  it('names each gate in the order a user would fix them', () => {
    expect(keepReason(row(), show({ delete_after_download: false }), adOn, 'ok')).toBe('the show keeps box copies');
    expect(keepReason(row({ status: 'partial' }), show(), adOn, 'ok')).toBe('not downloaded');
    expect(keepReason(row({ file_path: null }), show(), adOn, 'ok')).toBe('not downloaded');
    expect(keepReason(row({ file_path: '' }), show(), adOn, 'ok')).toBe('not downloaded');
    expect(keepReason(row({ purged_at: 0 }), show(), adOn, 'ok')).toBe('already deleted from the box');
    expect(keepReason(row({ ad_status: 'cut_failed' }), show(), adOn, 'ok')).toBe('ad removal ended cut_failed: the box copy is kept');
    expect(keepReason(row(), show(), { ad_removal_enabled: true, media_server_url: 'http://127.0.0.1:32400' }, 'failed')).toBe(
      'the media server has not refreshed its library: the box copy is kept',
    );
    expect(keepReason(row(), show(), { ad_removal_enabled: true, media_server_url: 'http://127.0.0.1:32400' }, 'ok')).toBeNull();
  });

  it('ad outcomes count only while ad removal is on for the app and the show', () => {
    const failed = row({ ad_status: 'detect_failed' });
    expect(keepReason(failed, show({ ad_mode: 'detect' }), adOn, null)).toBe('ad removal ended detect_failed: the box copy is kept');
    expect(keepReason(failed, show({ ad_mode: 'off' }), adOn, null)).toBeNull();
    expect(keepReason(failed, show({ ad_mode: 'cut' }), { ...adOn, ad_removal_enabled: false }, null)).toBeNull();
  });

  it('a marked recording lets the box copy go only when its show counts a mark as a cut (issue 45)', () => {
    const marked = row({ ad_status: 'marked' });
    expect(keepReason(marked, show({ ad_mode: 'mark' }), adOn, null)).toBe('ad removal ended marked: the box copy is kept');
    expect(keepReason(marked, show({ ad_mode: 'mark', mark_counts_as_cut: true }), adOn, null)).toBeNull();
    // A failed mark keeps the copy whatever the show says.
    expect(keepReason(row({ ad_status: 'mark_failed' }), show({ ad_mode: 'mark', mark_counts_as_cut: true }), adOn, null)).toBe('ad removal ended mark_failed: the box copy is kept');
  });
});

describe('cloud account from the settings', () => {
  const settings = (urls: { api: string; ws: string }, given: Record<string, Record<string, string>>) => ({
    get: () => ({ cloud_api_url: urls.api, cloud_ws_url: urls.ws }) as never,
    secretFor: (key: string, url: string) => given[key]?.[url] ?? '',
  });
  const api = 'https://cloud.example.test/';
  const ws = 'wss://cloud.example.test/';

  it('the activation code and PIN go with the URLs they were given for', () => {
    const s = settings({ api, ws }, { cloud_activation_code: { [api]: 'CODE', [ws]: 'CODE' }, cloud_pin: { [api]: '1234', [ws]: '1234' } });
    expect(cloudAccountOf(s)).toEqual({ apiUrl: api, wsUrl: ws, activationCode: 'CODE', pin: '1234' });
  });

  it('a secret bound to only one of the two URLs is not sent at all', () => {
    const s = settings({ api, ws: 'wss://elsewhere.test/' }, { cloud_activation_code: { [api]: 'CODE' }, cloud_pin: { [api]: '1234' } });
    expect(cloudAccountOf(s)).toEqual({ apiUrl: api, wsUrl: 'wss://elsewhere.test/', activationCode: '', pin: '' });
    const t = settings({ api, ws }, { cloud_activation_code: { [ws]: 'CODE' }, cloud_pin: { [api]: '1234', [ws]: '9999' } });
    expect(cloudAccountOf(t)).toEqual({ apiUrl: api, wsUrl: ws, activationCode: '', pin: '' });
  });
});
