import { Banner } from '../../kit/Banner.js';
import { SectionedPage, type PageSection } from '../../kit/SectionedPage.js';
import { sectionsFor } from '../features/index.js';
import { useServerSettings } from '../use-server.js';
import { DangerZone } from './DangerZone.js';

/**
 * Every recording-sync setting the service acts on, one group at a time; each group saves on its own.
 * The sections come from the features' list (renderer/recordings/features/index.ts), in its order; a
 * section whose feature the service has not wired in is left out.
 */
export function SettingsPage() {
  const { view, error, reload } = useServerSettings();
  if (!view) return error ? <Banner kind="error">{error}</Banner> : <p className="muted">Loading…</p>;
  const caps = view.capabilities;
  const page = { view, reload: () => void reload() };
  const sections: PageSection[] = sectionsFor(caps).map((s) => ({ id: s.id, label: s.label, explainer: s.explainer, render: () => s.render(page) }));
  return (
    <>
      <h1>Settings</h1>
      {error && <Banner kind="error">{error}</Banner>}
      <SectionedPage sections={sections} />
      <p className="muted small">Times are shown in {view.tz} (the service’s TZ).</p>
      <DangerZone />
    </>
  );
}
