import { useState } from 'react';
import { Field } from '../../kit/Field.js';
import { messageOf, rec, RecApiError } from '../api.js';
import type { AdMode, Capabilities, Show, ShowInput } from '../types.js';
import { AD_MODE_TEXT, AD_MODES, MARK_CHAPTERS, MARK_CHAPTERS_TEXT, SHOW_AD_FIELDS, type MarkChapters } from '../../../main/recordings/store/show-ad-options.js';
import { previewPath } from './path-preview.js';
import { LockedWhy, useLocked } from '../locked.js';

/** The form's values: a show as written (`id` null for a new one). */
export type ShowDraft = ShowInput & { id: number | null };

export const emptyDraft = (name = '', dest = ''): ShowDraft => ({
  id: null, name, dest_folder: dest, season_template: 'Season {season}', enabled: true, ad_mode: 'off', delete_after_download: false, mark_chapters: 'none', mark_counts_as_cut: false,
});
export const draftOf = (s: Show): ShowDraft => ({
  id: s.id, name: s.name, dest_folder: s.dest_folder, season_template: s.season_template, enabled: s.enabled, ad_mode: s.ad_mode, delete_after_download: s.delete_after_download,
  mark_chapters: s.mark_chapters, mark_counts_as_cut: s.mark_counts_as_cut,
});

type FieldName = keyof ShowInput;

/** Follow a show or edit one: destination and season template with a live path preview; the server's message beside a refused field. */
export function ShowForm({ draft, mediaRoot, caps, onChange, onSaved, onCancel }: { draft: ShowDraft; mediaRoot: string; caps: Capabilities | undefined; onChange: (d: ShowDraft) => void; onSaved: (s: Show) => void; onCancel: () => void }) {
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const locked = useLocked();
  const set = <K extends keyof ShowDraft>(k: K, v: ShowDraft[K]) => {
    onChange({ ...draft, [k]: v });
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const preview = (season: number | null) =>
    previewPath({ mediaRoot, destFolder: draft.dest_folder, seasonTemplate: draft.season_template, show: draft.name || 'Show', season, episode: 2, episodeTitle: 'Episode title' });

  const save = async () => {
    setSaving(true);
    setErrors({});
    setGeneral(null);
    const body: Record<string, unknown> = { name: draft.name, dest_folder: draft.dest_folder, season_template: draft.season_template, enabled: draft.enabled };
    if (caps?.ad_scan) Object.assign(body, { ad_mode: draft.ad_mode, mark_chapters: draft.mark_chapters, mark_counts_as_cut: draft.mark_counts_as_cut });
    if (caps?.delete_from_box) body.delete_after_download = draft.delete_after_download;
    try {
      const res = draft.id === null ? await rec.post<{ show: Show }>('/api/shows', body) : await rec.patch<{ show: Show }>(`/api/shows/${draft.id}`, body);
      onSaved(res.show);
    } catch (err) {
      if (err instanceof RecApiError && err.field && err.field in body) setErrors({ [err.field as FieldName]: err.message });
      else setGeneral(messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      aria-label={draft.id === null ? 'Follow a show' : `Edit ${draft.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="form-grid">
        <Field label="Show name" hint="Matched case-insensitively as part of the box's show folder names." error={errors.name}>
          {(p) => <input {...p} value={draft.name} onChange={(e) => set('name', e.target.value)} required autoComplete="off" />}
        </Field>
        <Field label="Destination folder" hint="Inside the media root, e.g. Comedy/2 Broke Girls." error={errors.dest_folder}>
          {(p) => <input {...p} value={draft.dest_folder} onChange={(e) => set('dest_folder', e.target.value)} autoComplete="off" />}
        </Field>
        <Field label="Season folder" hint="{season} → 01, {season_unpadded} → 1; empty for none." error={errors.season_template}>
          {(p) => <input {...p} value={draft.season_template} onChange={(e) => set('season_template', e.target.value)} autoComplete="off" />}
        </Field>
        {caps?.ad_scan && (
          <Field label={SHOW_AD_FIELDS.ad_mode.label} hint={AD_MODE_TEXT[draft.ad_mode].sentence} error={errors.ad_mode}>
            {(p) => (
              <select {...p} value={draft.ad_mode} onChange={(e) => set('ad_mode', e.target.value as AdMode)}>
                {AD_MODES.map((m) => (
                  <option key={m} value={m}>
                    {AD_MODE_TEXT[m].label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {caps?.ad_scan && draft.ad_mode === 'mark' && (
          <Field label={SHOW_AD_FIELDS.mark_chapters.label} hint={MARK_CHAPTERS_TEXT[draft.mark_chapters].sentence} error={errors.mark_chapters}>
            {(p) => (
              <select {...p} value={draft.mark_chapters} onChange={(e) => set('mark_chapters', e.target.value as MarkChapters)}>
                {MARK_CHAPTERS.map((c) => (
                  <option key={c} value={c}>
                    {MARK_CHAPTERS_TEXT[c].label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </div>
      <Field label="Sync this show" checkbox error={errors.enabled}>
        {(p) => <input {...p} type="checkbox" checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} />}
      </Field>
      {caps?.delete_from_box && (
        <Field
          label="Delete from the box after download"
          hint="Frees the box's disk once the episode is in the library: after the media server refreshed (when one is set) and, with ad removal, only when the cut verified or no breaks were found."
          checkbox
          error={errors.delete_after_download}
        >
          {(p) => <input {...p} type="checkbox" checked={draft.delete_after_download} onChange={(e) => set('delete_after_download', e.target.checked)} />}
        </Field>
      )}
      {caps?.delete_from_box && caps?.ad_scan && draft.ad_mode === 'mark' && draft.delete_after_download && (
        <Field label={SHOW_AD_FIELDS.mark_counts_as_cut.label} hint={SHOW_AD_FIELDS.mark_counts_as_cut.description} checkbox error={errors.mark_counts_as_cut}>
          {(p) => <input {...p} type="checkbox" checked={draft.mark_counts_as_cut} onChange={(e) => set('mark_counts_as_cut', e.target.checked)} />}
        </Field>
      )}
      <p className="small muted" id="path-preview-label">
        Where episodes go (preview):
      </p>
      <p className="path-preview" data-testid="path-preview" aria-labelledby="path-preview-label" aria-live="polite">
        {preview(1)}
      </p>
      <p className="small muted">
        Without a season on the box: <code>{preview(null)}</code>
      </p>
      {general && (
        <p className="error-text" role="alert">
          {general}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={saving || locked === true} aria-describedby={locked ? 'show-form-locked' : undefined}>
          {draft.id === null ? 'Follow show' : 'Save show'}
        </button>
        <LockedWhy id="show-form-locked" locked={locked} what={draft.id === null ? 'follow a show' : 'save the show'} />
        {draft.id !== null && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
