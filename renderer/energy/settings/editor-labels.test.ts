import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { settingsJsonSchema } from '../../../main/energy/settings/routes.js';
import { AlertsEditor } from '../features/alerts/AlertsEditor.js';
import { SitePicker } from '../features/prices/SitePicker.js';
import { SmartLoadNamesEditor, StringNamesEditor } from '../features/gateway/NamesEditors.js';
import { HostListEditor } from '../features/general/HostListEditor.js';
import { NetworkConnectionsEditor } from '../features/homekit/NetworkConnectionsEditor.js';
import { WindowsEditor } from '../features/tariff/WindowsEditor.js';
import { PlaceSearch } from '../features/weather/PlaceSearch.js';
import type { JsonSchema } from './schema.js';
import type { EditorProps } from './SettingField.js';

// The schema as GET /api/settings/schema publishes it: the one source of a field's label and hint.
const root = settingsJsonSchema() as JsonSchema;
const node = (path: string) => path.split('.').reduce<JsonSchema | undefined>((n, k) => n?.properties?.[k], root)!;
const unescape = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

/** Each labelled control of rendered HTML: its label's text and its hint's (the span its id names). */
function fields(html: string): Array<{ label: string; hint: string | null }> {
  return [...html.matchAll(/<label for="([^"]+)">(.*?)<\/label>/g)].map((m) => {
    const hint = new RegExp(`<span class="hint" id="${m[1]!}-hint">(.*?)</span>`).exec(html)?.[1];
    return { label: unescape(m[2]!), hint: hint === undefined ? null : unescape(hint) };
  });
}
/** What the schema says of `keys` of a list's items (or of fields), in that order. */
const words = (nodes: Array<JsonSchema | undefined>) => nodes.map((n) => ({ label: n?.label ?? n?.anyOf?.find((x) => x.label)?.label, hint: n?.description ?? n?.anyOf?.find((x) => x.description)?.description ?? null }));
const items = (list: JsonSchema, keys: string[]) => words(keys.map((k) => list.items?.properties?.[k]));

function render(editor: (p: EditorProps) => React.ReactNode, path: string, value: unknown): string {
  return renderToStaticMarkup(createElement(() => editor({ path, schema: node(path), value, errors: {}, disabled: false, set: () => {}, setRaw: () => {} })));
}

describe('the settings editors name their fields as the settings schema does (no label or hint lives twice)', () => {
  it('an alert rule', () => {
    const html = render(AlertsEditor, 'alerts', [{ id: 'a', name: 'Low', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 20, unit: null, settleSeconds: 60, clearSeconds: null, webhookUrl: '' }]);
    expect(fields(html)).toEqual(items(node('alerts'), ['name', 'trigger', 'condition', 'threshold', 'unit', 'settleSeconds', 'clearSeconds', 'webhookUrl']));
    for (const k of ['enabled', 'homekit']) expect(html).toContain(node('alerts').items!.properties![k]!.label);
  });

  it("an alert rule's choices: the triggers, the comparisons and the units in the server's words", () => {
    const html = render(AlertsEditor, 'alerts', [{ id: 'a', name: 'Low', trigger: 'gridImport', condition: 'atOrAbove', threshold: 20, unit: null, settleSeconds: 60, clearSeconds: null, webhookUrl: '' }]);
    const shown = [...html.matchAll(/<option value="([^"]*)"[^>]*>(.*?)<\/option>/g)].map((m) => [m[1], unescape(m[2]!)]);
    const rule = node('alerts').items!.properties!;
    expect(shown).toEqual([...Object.entries(rule.trigger!.options!), ...Object.entries(rule.condition!.options!), ['W', 'W'], ['kW', 'kW']]);
    expect(rule.trigger!.options!.gridImport).toBe('Grid import');
  });

  it('a time-of-use period', () => {
    const html = render(WindowsEditor, 'tariff.windows', [{ name: 'Peak', start: '15:00', end: '21:00', days: ['mon'], importRate: 0.4, feedInRate: null }]);
    expect(fields(html)).toEqual(items(node('tariff.windows'), ['name', 'start', 'end', 'importRate', 'feedInRate']));
  });

  it('the Amber site and the weather place pickers', () => {
    expect(fields(render(SitePicker, 'prices.amber.siteId', ''))).toEqual(words([node('prices.amber.siteId')]));
    expect(fields(render(PlaceSearch, 'weather.location', ''))).toEqual(words([node('weather.location')]));
  });

  it("each list editor's legend and hint are its schema node's label and description", () => {
    const lists: Array<[(p: EditorProps) => React.ReactNode, string, unknown]> = [
      [AlertsEditor, 'alerts', []],
      [WindowsEditor, 'tariff.windows', []],
      [SmartLoadNamesEditor, 'names.smartLoads', {}],
      [StringNamesEditor, 'names.strings', {}],
      [HostListEditor, 'general.allowedHosts', []],
      [NetworkConnectionsEditor, 'homekit.bind', []],
    ];
    for (const [editor, path, value] of lists) {
      const html = render(editor, path, value);
      const legend = unescape(/<legend>(.*?)<\/legend>(?:<p class="small muted">(.*?)<\/p>)?/.exec(html)?.[0] ?? '');
      expect(legend, path).toBe(`<legend>${node(path).label}</legend><p class="small muted">${node(path).description}</p>`);
    }
  });
});
