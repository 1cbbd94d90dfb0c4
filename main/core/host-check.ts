import net from 'node:net';
import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * DNS-rebinding defence shared by both services. A web page on any site can point its own name at
 * this PC and then talk to the service "same-origin"; the browser still sends that foreign name in
 * `Host`. So a request is served only when its `Host` is:
 * - an IP literal (v4 or v6, with or without a port): rebinding needs a name;
 * - `localhost`;
 * - this machine's own host name, or that name with `.local` (mDNS);
 * - a name the user added to the service's allowed-hosts setting.
 * State-changing requests (POST, PUT, PATCH, DELETE) carrying an `Origin` are refused unless that
 * origin is the very host:port the request was sent to (and that host passes the rule above).
 */
export interface HostCheckOptions {
  /** Extra host names the user allowed (settings); read on every request, so edits apply live. */
  allowedHosts: () => readonly string[];
  /** This machine's host names (default: os.hostname() and `<name>.local`). Tests inject. */
  ownHostNames?: () => readonly string[];
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Lower-cased, without a trailing dot, IPv6 brackets removed. */
function normaliseName(name: string): string {
  let n = name.trim().toLowerCase();
  if (n.endsWith('.')) n = n.slice(0, -1);
  if (n.startsWith('[') && n.endsWith(']')) n = n.slice(1, -1);
  return n;
}

/** Splits a `Host` header value into host name and port; null when it is malformed. */
export function parseHostHeader(value: string | undefined): { name: string; port: string } | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 300) return null;
  const v = value.trim();
  const m = /^\[([0-9a-fA-F:.]+(?:%[A-Za-z0-9_.-]+)?)\](?::(\d{1,5}))?$/.exec(v) ?? /^([^:[\]\s/@]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return null;
  return { name: normaliseName(m[1]!), port: m[2] ?? '' };
}

/** The machine's own names: os.hostname() (and its first label) plus `.local`. */
export function machineHostNames(): string[] {
  const full = normaliseName(os.hostname());
  if (!full) return [];
  const short = full.split('.')[0]!;
  return [...new Set([full, short, `${short}.local`, `${full}.local`])];
}

/** Whether a bare host name (no port) passes the rule. */
export function isAllowedHostName(name: string, opts: HostCheckOptions): boolean {
  const n = normaliseName(name);
  if (!n) return false;
  if (net.isIP(n.split('%')[0]!) !== 0) return true;
  if (n === 'localhost') return true;
  if ((opts.ownHostNames ?? machineHostNames)().some((h) => normaliseName(h) === n)) return true;
  return opts.allowedHosts().some((h) => normaliseName(h) === n);
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** Null when the request may proceed, else the 403 to answer. */
export function checkRequestHost(req: Pick<FastifyRequest, 'method' | 'headers'>, opts: HostCheckOptions): AppError | null {
  const host = parseHostHeader(req.headers.host);
  if (!host || !isAllowedHostName(host.name, opts)) {
    return new AppError(403, 'forbidden_host', 'Host not allowed: use the IP address, localhost or this computer\'s name, or add the name to the allowed hosts setting.');
  }
  if (!STATE_CHANGING.has(req.method.toUpperCase())) return null;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let url: URL | null = null;
  try {
    url = typeof origin === 'string' ? new URL(origin) : null;
  } catch {
    url = null;
  }
  const sameHost =
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    normaliseName(url.hostname) === host.name &&
    (url.port || defaultPort(url.protocol)) === (host.port || defaultPort(url.protocol)) &&
    isAllowedHostName(url.hostname, opts);
  if (!sameHost) return new AppError(403, 'forbidden_origin', 'Cross-site request refused: the page that sent it is not served by this service.');
  return null;
}

/** Adds the check as the first onRequest hook of `app`. */
export function registerHostCheck(app: FastifyInstance, opts: HostCheckOptions): void {
  app.addHook('onRequest', async (req) => {
    const refusal = checkRequestHost(req, opts);
    if (refusal) throw refusal;
  });
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** Whether `name` is a DNS host name (letters, digits, hyphens, dots), as the allowed-hosts settings take. */
export function isHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

/** Splits an allowed-hosts list typed as text (commas or white space between names). */
export function splitHostList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((h) => h.trim())
    .filter((h) => h !== '');
}
