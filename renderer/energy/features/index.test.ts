import { describe, expect, it } from 'vitest';
import { settingsFields, settingsOwners } from '../../../main/energy/settings/energy-settings.js';
import { energyFeaturePages, energyPageSections } from './index.js';

// The page's list mirrors the server's: a page section for a group the server does not have, or
// under another feature's name, would never be drawn (the page draws the schema's groups only).
describe('the energy settings page sections, by feature', () => {
  const serverNames = settingsOwners.map((f) => f.name);
  const serverKeys = (name: string) => (settingsOwners.find((f) => f.name === name)?.settings ?? []).map((s) => s.key);

  it('each page entry is named after a server feature and draws only that feature’s settings groups', () => {
    for (const page of energyFeaturePages) {
      expect(serverNames, page.name).toContain(page.name);
      for (const s of page.sections) expect(serverKeys(page.name), `${page.name} › ${s.key}`).toContain(s.key);
    }
  });

  it('lists the features in the server list’s order, each once, each group once', () => {
    const order = energyFeaturePages.map((p) => serverNames.indexOf(p.name));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(order.length);
    const keys = energyFeaturePages.flatMap((p) => p.sections.map((s) => s.key));
    expect(energyPageSections.size).toBe(keys.length);
  });

  it('every purpose-built editor replaces a field the server publishes, inside its own group', () => {
    const fields = settingsFields();
    for (const [key, s] of energyPageSections) {
      for (const path of Object.keys(s.editors ?? {})) {
        expect(path === key || path.startsWith(`${key}.`), path).toBe(true);
        expect([...fields.keys()].some((f) => f === path || f.startsWith(`${path}.`)), path).toBe(true);
      }
    }
  });

  it('the groups a householder asked about have their explainer and tools (the page as it was)', () => {
    const explained = [...energyPageSections].filter(([, s]) => s.explainer).map(([k]) => k);
    expect(explained).toEqual(expect.arrayContaining(['general', 'gateway', 'polling', 'history', 'battery', 'names', 'tariff', 'alerts', 'weather', 'homekit', 'smartHome']));
    expect([...energyPageSections].filter(([, s]) => s.tools).map(([k]) => k)).toEqual(expect.arrayContaining(['gateway', 'weather', 'homekit']));
  });
});
