import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices } from './compose.js';
import { startComposedOnLoopback } from './compose-on-loopback.js';
import { silentLogger } from './core/logger.js';
import { CannotListenError } from './core/startup.js';
import { tempDir } from './recordings/testing/harness.js';
import { checkListenSettings } from './energy/service/listen-settings.js';
import { energySeedsFromEnv } from './energy/settings/energy-settings.js';

/**
 * A setting that cannot work is refused when it is saved (issue 37, item 5): both services composed
 * as `npm start` does, on loopback, over real sockets.
 */
describe('the energy bridge refuses a port or address that cannot work (composed, real sockets)', () => {
  let composed: Awaited<ReturnType<typeof startComposedOnLoopback>>;
  let energy: string;
  let settingsFile: string;
  const blocker = net.createServer();
  let taken = 0;
  beforeAll(async () => {
    composed = await startComposedOnLoopback('listen-settings-');
    energy = composed.energy.url;
    settingsFile = path.join(composed.dataDir, 'energy', 'settings.json');
    // Another program on this computer holds a port.
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    taken = (blocker.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => blocker.close(r));
    await composed?.stop();
  });

  const put = async (body: unknown) => {
    const res = await fetch(`${energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string; field?: string } } & Record<string, unknown> };
  };

  it("the energy port set to the recording sync's port answers 400 naming the field, and the settings file is unchanged", async () => {
    const before = fs.readFileSync(settingsFile, 'utf8');
    const res = await put({ general: { serverPort: composed.recordings.port } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'general.serverPort' });
    expect(res.body.error!.message).toBe(`Server port: port ${composed.recordings.port} is already used by the recording sync; choose another port`);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
  });

  it('a port another program holds answers 400 in plain words; a free one is saved', async () => {
    const before = fs.readFileSync(settingsFile, 'utf8');
    const res = await put({ general: { serverPort: taken } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ field: 'general.serverPort', message: `Server port: port ${taken} is already used by another program on this computer; choose a free port` });
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);

    const free = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const ok = await put({ general: { serverPort: free } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).general.serverPort).toBe(free);
  });

  it('a HomeKit port on the pages, and a HomeKit address this PC does not have, are refused', async () => {
    const before = fs.readFileSync(settingsFile, 'utf8');
    const port = Number(new URL(energy).port);
    const onPages = await put({ homekit: { enabled: true, port: composed.recordings.port } });
    expect(onPages.status).toBe(400);
    expect(onPages.body.error).toMatchObject({ field: 'homekit.port', message: `HomeKit port: port ${composed.recordings.port} is already used by the recording sync; choose another port` });
    expect((await put({ homekit: { enabled: true, port } })).body.error).toMatchObject({ field: 'homekit.port' });
    // 192.0.2.0/24 is documentation space: no PC has it.
    const away = await put({ homekit: { bind: ['192.0.2.77'] } });
    expect(away.status).toBe(400);
    expect(away.body.error).toMatchObject({ field: 'homekit.bind', message: 'Network connections: no network interface has the address 192.0.2.77 on this computer' });
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(before);
  });
});

describe('a privileged port this process may not bind', () => {
  it('is refused with the reason, not saved to fail at the next start', async () => {
    const prev = energySeedsFromEnv({});
    const next = { ...prev, general: { ...prev.general, serverPort: 80 } };
    // The tests run as root, which may bind port 80: the probe answers as Linux does for other users.
    const deps = { host: '0.0.0.0', ownPort: () => 5163, running: prev, others: () => [], probe: async (p: number) => (p < 1024 ? 'EACCES' : null) };
    await expect(checkListenSettings(deps, prev, next)).rejects.toMatchObject({
      status: 400,
      field: 'general.serverPort',
      message: 'Server port: port 80 is below 1024, which this app is not allowed to use; choose a port from 1024 up',
    });
    await expect(checkListenSettings(deps, prev, { ...prev, general: { ...prev.general, serverPort: 8080 } })).resolves.toBeUndefined();
  });
});

describe('a start that cannot bind one service (composed, real sockets)', () => {
  it('with the energy port taken by another program, the recording sync still comes up, and the failure names the setting and its file', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;
    const dir = tempDir('listen-start-');
    fs.mkdirSync(path.join(dir, 'media'));
    // The port was saved in the settings file (no SERVER_PORT in the environment).
    fs.mkdirSync(path.join(dir, 'energy'));
    const settingsFile = path.join(dir, 'energy', 'settings.json');
    fs.writeFileSync(settingsFile, JSON.stringify({ general: { serverPort: taken } }));
    const services = composeServices({
      dataDir: dir,
      env: { PORT: '0', MEDIA_ROOT: path.join(dir, 'media'), GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' },
      logger: silentLogger,
      host: '127.0.0.1',
    });
    try {
      const failures = await services.startEach();
      expect(failures.map((f) => f.service)).toEqual(['energy']);
      expect(failures[0]!.error).toBeInstanceOf(CannotListenError);
      expect((failures[0]!.error as Error).message).toBe(
        `port ${taken} on 127.0.0.1 is already in use, so the energy bridge cannot start — stop whatever uses it, or change general.serverPort in ${settingsFile} (or set SERVER_PORT) to a free port`,
      );
      const res = await fetch(`${services.recordings!.url}/api/shows`);
      expect(res.status).toBe(200);
    } finally {
      await services.stop();
      await new Promise((r) => blocker.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
