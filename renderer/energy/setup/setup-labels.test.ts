import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { settingsJsonSchema } from '../../../main/energy/settings/routes.js';
import type { JsonSchema } from '../settings/schema.js';
import { EssentialsStep, ESSENTIALS_PATHS, type Essentials } from './EssentialsStep.js';
import { GatewayStep } from './GatewayStep.js';

// The schema as GET /api/settings/schema publishes it: the one source of a field's label and hint.
const schema = settingsJsonSchema() as JsonSchema;
const node = (path: string) => path.split('.').reduce<JsonSchema | undefined>((n, k) => n?.properties?.[k], schema)!;

/** Each field of rendered HTML: its label's text and its hint's. */
function fields(html: string): Array<{ label: string; hint: string | null }> {
  const out: Array<{ label: string; hint: string | null }> = [];
  for (const m of html.matchAll(/<div class="field[^"]*">(.*?)<\/div>/g)) {
    const label = /<label[^>]*>(.*?)<\/label>/.exec(m[1]!)?.[1] ?? '';
    const hint = /<span class="hint"[^>]*>(.*?)<\/span>/.exec(m[1]!)?.[1] ?? null;
    out.push({ label, hint });
  }
  return out;
}
const unescape = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const words = (paths: string[]) => paths.map((p) => ({ label: node(p).label, hint: node(p).description ?? null }));

describe('the setup wizard names its fields as the settings schema does (no label or hint lives twice)', () => {
  it('the essentials step: battery, tariff and place', () => {
    const value: Essentials = { capacityKwh: '', reserveSoc: '', currency: 'AUD', importRate: '0', feedInRate: '0', dailySupplyCharge: '0', location: '', weather: true };
    const html = renderToStaticMarkup(createElement(EssentialsStep, { value, set: () => {}, errors: {}, onBack: () => {}, onSave: () => {}, saving: false, schema }));
    const shown = fields(html).map((f) => ({ label: unescape(f.label), hint: f.hint && unescape(f.hint) }));
    expect(shown).toEqual(words(['battery.capacityKwh', 'battery.reserveSoc', 'general.currency', 'tariff.importRate', 'tariff.feedInRate', 'tariff.dailySupplyCharge', 'weather.enabled', 'weather.location']));
    expect(Object.values(ESSENTIALS_PATHS).sort()).toEqual(['battery.capacityKwh', 'battery.reserveSoc', 'general.currency', 'tariff.dailySupplyCharge', 'tariff.feedInRate', 'tariff.importRate', 'weather.enabled', 'weather.location']);
    // The unit beside a number, as on the settings page.
    expect(html).toContain('<span class="unit">kWh</span>');
  });

  it('the gateway step: address and port', () => {
    const html = renderToStaticMarkup(createElement(GatewayStep, { host: '', port: '502', setHost: () => {}, setPort: () => {}, error: null, onNext: () => {}, schema }));
    const shown = fields(html).map((f) => ({ label: unescape(f.label), hint: f.hint && unescape(f.hint) }));
    expect(shown).toEqual(words(['gateway.host', 'gateway.port']));
  });
});
