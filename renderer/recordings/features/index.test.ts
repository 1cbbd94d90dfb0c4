import { describe, expect, it } from 'vitest';
import { settingOwners } from '../../../main/recordings/settings.js';
import { capabilities, settingsSchemaView } from '../../../main/recordings/routes/settings-routes.js';
import type { RouteContext } from '../../../main/recordings/routes/context.js';
import { recordingsFeaturePages, recordingsPageSections, sectionsFor } from './index.js';

// The page's list mirrors the server's: a section under another feature's name, or editing a key
// the server does not have, would save nothing the service acts on (PATCH refuses unknown keys).
describe('the recordings settings page sections, by feature', () => {
  const serverNames = settingOwners.map((f) => f.name);
  const serverKeys = (name: string) => Object.keys(settingOwners.find((f) => f.name === name)?.settings ?? {});

  it('each page entry is named after a server feature and edits only that feature’s settings', () => {
    for (const page of recordingsFeaturePages) {
      expect(serverNames, page.name).toContain(page.name);
      for (const s of page.sections) {
        expect(s.keys.length, `${page.name} › ${s.id}`).toBeGreaterThan(0);
        for (const key of s.keys) expect(serverKeys(page.name), `${page.name} › ${s.id} › ${key}`).toContain(key);
      }
    }
  });

  it('every key the page edits is in GET /api/settings/schema, and no two sections edit the same key', () => {
    const published = Object.keys(settingsSchemaView().fields);
    const keys = recordingsPageSections.flatMap((s) => s.keys);
    for (const key of keys) expect(published, key).toContain(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lists the features in the server list’s order, each once; section ids are unique', () => {
    const order = recordingsFeaturePages.map((p) => serverNames.indexOf(p.name));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(order.length);
    const ids = recordingsPageSections.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a section that needs a feature names a capability the service reports', () => {
    const reported = Object.keys(capabilities({ seams: {}, capabilities: new Set<string>() } as unknown as RouteContext));
    for (const s of recordingsPageSections) if (s.needs) expect(reported, s.id).toContain(s.needs);
  });

  it('the page as it was: its sections in order, each explained, the optional ones behind their capability', () => {
    expect(recordingsPageSections.map((s) => s.id)).toEqual(['box', 'library', 'schedule', 'ads', 'media-server', 'cloud', 'mqtt', 'metrics']);
    expect(recordingsPageSections.filter((s) => !s.explainer).map((s) => s.id)).toEqual([]);
    expect(Object.fromEntries(recordingsPageSections.filter((s) => s.needs).map((s) => [s.id, s.needs]))).toEqual({ ads: 'ad_scan', 'media-server': 'discover_media_server', cloud: 'cloud_test' });
  });

  it('a service without ad removal, a media server or the box cloud wired in shows none of their sections', () => {
    const bare = capabilities({ seams: {}, capabilities: new Set<string>() } as unknown as RouteContext);
    const shown = sectionsFor(bare).map((s) => s.label);
    for (const hidden of ['Ad removal', 'Media server', 'Box cloud account']) expect(shown).not.toContain(hidden);
    expect(shown).toEqual(expect.arrayContaining(['Recording box', 'Media library', 'Schedule']));
    const all = sectionsFor({ ad_scan: true, discover_media_server: true, cloud_test: true }).map((s) => s.label);
    expect(all).toEqual(expect.arrayContaining(['Ad removal', 'Media server', 'Box cloud account']));
  });
});
