import { describe, expect, it } from 'vitest';
import { settingsSchemaView } from '../../../main/recordings/routes/settings-routes.js';
import { kindOf, unitOf } from './use-schema.js';

// The schema as GET /api/settings/schema publishes it: the page's one source of labels and kinds.
const fields = settingsSchemaView().fields as Record<string, Parameters<typeof kindOf>[0]>;

describe('recordings settings read from the schema', () => {
  it('the control follows the setting: secrets masked, switches for on/off, numbers for numbers', () => {
    expect(kindOf(fields.mqtt_password!)).toBe('secret');
    expect(kindOf(fields.mqtt_enabled!)).toBe('bool');
    expect(kindOf(fields.download_concurrency!)).toBe('number');
    expect(kindOf(fields.cloud_api_url!)).toBe('text');
  });
  it('a number shows its unit beside it unless the label names it already', () => {
    expect(unitOf('mqtt_publish_interval_seconds', fields.mqtt_publish_interval_seconds!.label)).toBe('s');
    expect(unitOf('free_space_margin_mb', fields.free_space_margin_mb!.label)).toBeNull();
    expect(unitOf('download_concurrency', fields.download_concurrency!.label)).toBeNull();
  });
});
