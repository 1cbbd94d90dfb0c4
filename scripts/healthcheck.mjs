#!/usr/bin/env node
/**
 * The deployment's health check (deploy/home-lan-bridge-health.service, every 30 seconds): the
 * recording sync's `GET /healthz` (PORT, default 8124) and the energy bridge's `GET /api/state`
 * (SERVER_PORT, default 5163) must answer 200 within 5 seconds on loopback. Exit 0 when both do,
 * 1 otherwise (systemd then restarts the bridge). A `degraded` sync (full disk, unwritable data
 * folder) is printed but passes: a restart would not fix what needs the user.
 */
/* global fetch, AbortSignal */
import process from 'node:process';

const env = process.env;
const host = env.HEALTH_HOST || '127.0.0.1';
const timeoutMs = Number(env.HEALTH_TIMEOUT_MS) || 5000;
const port = (value, fallback) => (value && /^\d+$/.test(value.trim()) ? Number(value) : fallback);
const targets = [{ name: 'energy bridge', url: `http://${host}:${port(env.SERVER_PORT, 5163)}/api/state` }];
targets.push({ name: 'recording sync', url: `http://${host}:${port(env.PORT, 8124)}/healthz` });

let ok = true;
for (const t of targets) {
  try {
    const res = await fetch(t.url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    const text = (await res.text()).slice(0, 2000);
    if (res.status !== 200) {
      ok = false;
      process.stdout.write(`${t.name}: ${t.url} answered HTTP ${res.status}\n`);
      continue;
    }
    let status = 'ok';
    try {
      status = JSON.parse(text).status ?? 'ok';
    } catch {
      // the energy bridge's state is checked for its 200 only
    }
    process.stdout.write(`${t.name}: ${status}\n`);
  } catch (err) {
    ok = false;
    process.stdout.write(`${t.name}: ${t.url} did not answer: ${err.message}\n`);
  }
}
process.exit(ok ? 0 : 1);
