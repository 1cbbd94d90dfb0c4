import { describe, expect, it } from 'vitest';
import { openDatabase } from '../core/sqlite.js';
import { createRecordingSettings } from './settings.js';
import { recordingMigrations } from './store/migrations.js';

const ctx = { env: {}, tz: 'UTC', configDir: '/nonexistent-config', bundledDetectorIni: '/nonexistent/detector.ini' };

describe('secrets stored before they were bound', () => {
  it('are bound at start to the destination stored now: sent there, cleared when it moves', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    try {
      // As an older version stored them: values only, no binding.
      const put = db.prepare('INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, 0)');
      put.run('media_server_url', JSON.stringify('http://192.168.1.10:32400'));
      put.run('media_server_token', JSON.stringify('old-token-123456'));
      put.run('cloud_api_url', JSON.stringify('https://cloud.example'));
      put.run('cloud_ws_url', JSON.stringify('wss://ws.cloud.example'));
      put.run('cloud_activation_code', JSON.stringify('code-1'));
      put.run('cloud_pin', JSON.stringify('9999'));
      const settings = createRecordingSettings(db, ctx);
      expect(settings.secretFor('media_server_token', 'http://192.168.1.10:32400/library/sections')).toBe('old-token-123456');
      expect(settings.secretFor('media_server_token', 'http://192.168.1.99:32400/')).toBe('');
      expect(settings.secretFor('cloud_pin', 'https://cloud.example/v3/authenticate')).toBe('9999');
      expect(settings.secretFor('cloud_pin', 'http://cloud.example/v3/authenticate')).toBe('');
      // A second start does not rebind to whatever is stored then.
      createRecordingSettings(db, ctx);
      const moved = settings.patch({ media_server_url: 'http://192.168.1.99:32400' }, 1);
      expect(moved.cleared).toEqual(['media_server_token']);
      expect(settings.get().media_server_token).toBe('');
      expect(settings.get().cloud_pin).toBe('9999');
    } finally {
      db.close();
    }
  });
});
