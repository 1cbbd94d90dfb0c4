import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';
import { isPrivateAddress } from './private-address.js';

/**
 * The one gate every outbound connection of both services goes through (DESIGN rule 11).
 *
 * Each connection says what it is for:
 * - `lan-device`: a device in the home (gateway, recording box, media server). Loopback, private
 *   and link-local addresses only; an internet address is refused.
 * - `internet`: a service on the internet (weather, geocoding, the vendor cloud). Loopback, private
 *   and link-local addresses are refused, unless the owner wrote that very address (an IP literal or
 *   `localhost`, same origin) in the setting the connection comes from: tests and the demo point
 *   these settings at loopback fakes. A name that resolves to a home address is always refused.
 * - `webhook`: goes where the owner pointed it (any unicast address).
 * Unspecified (0.0.0.0, ::), multicast and broadcast addresses are refused for every purpose.
 *
 * A host name is resolved once here, every address it resolves to is checked, and the connection
 * is made to the checked address (the socket's lookup is pinned to it), so a name cannot re-resolve
 * elsewhere between the check and the connect (DNS rebinding).
 */
export type OutboundPurpose = 'lan-device' | 'internet' | 'webhook';

export interface OutboundRule {
  purpose: OutboundPurpose;
  /**
   * The owner's setting value(s) this connection is made for (URLs). An `internet` connection whose
   * origin (scheme, host, port) equals one of them, with the host written as an IP address or
   * `localhost`, may use a loopback, private or link-local address.
   */
  configured?: ReadonlyArray<string | null | undefined>;
}

/** A resolved, checked address. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (default: the system resolver, like a socket would). */
export type Resolve = (host: string) => Promise<CheckedAddress[]>;

/** The transport the gate hands a checked request to (a URL string and fetch's options). */
export type Transport = (input: string, init?: RequestInit) => Promise<Response>;
/** What the gate offers callers: fetch's shape (a URL string or URL object; Request objects are not taken). */
export type GatedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A connection the gate refused; the message says why in plain words (safe to show and log). */
export class OutboundRefused extends Error {
  readonly code = 'outbound_refused';
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

const systemResolve: Resolve = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

function v4Int(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0) >>> 0;
}

function embeddedV4(ip: string): string | null {
  const m = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip) ?? /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : null;
}

/** Unspecified, multicast, broadcast or "this network" addresses: never a destination. */
export function isUnusableAddress(ip: string): boolean {
  const addr = ip.split('%')[0]!.toLowerCase();
  const family = net.isIP(addr);
  if (family === 4) {
    const n = v4Int(addr);
    return n >>> 24 === 0 || n >>> 28 === 0xe || n === 0xffffffff;
  }
  if (family !== 6) return true;
  const v4 = embeddedV4(addr);
  if (v4) return isUnusableAddress(v4);
  if (/^[0:]+$/.test(addr)) return true; // ::
  return addr.startsWith('ff');
}

/** 100.64.0.0/10 (carrier-grade NAT): not the internet either. */
function isSharedAddress(ip: string): boolean {
  const v4 = net.isIP(ip) === 4 ? ip : embeddedV4(ip.toLowerCase());
  return v4 !== null && v4Int(v4) >>> 22 === (0x64400000 >>> 22);
}

/**
 * Whether the rule lets a connection to `url` use a home-network address: the owner wrote that
 * address itself (an IP literal, or `localhost`) in the setting, same origin. A host NAME that
 * resolves to a home address is refused for an internet service even when it is the setting: that
 * is what a hijacked or rebinding name looks like.
 */
function ownerSetAddress(rule: OutboundRule, url: URL): boolean {
  const host = bareHost(url).toLowerCase();
  if (!net.isIP(host) && host !== 'localhost') return false;
  return (rule.configured ?? []).some((c) => {
    if (!c) return false;
    try {
      return new URL(c).origin === url.origin;
    } catch {
      return false;
    }
  });
}

const PURPOSE_WORDS: Record<OutboundPurpose, string> = {
  'lan-device': 'a device on your home network',
  internet: 'an internet service',
  webhook: 'a webhook',
};

/** The policy on one resolved address; null when allowed, else why not ("is …", to follow the address). */
export function refusalFor(purpose: OutboundPurpose, address: string, ownerSet = false): string | null {
  if (isUnusableAddress(address)) return 'is not an address a connection can go to';
  const home = isPrivateAddress(address);
  // Carrier-grade NAT space (100.64.0.0/10) is neither: other customers of the provider live there.
  if (purpose === 'lan-device' && isSharedAddress(address)) return `is in the provider's shared address space (100.64.0.0/10), not on your home network`;
  if (purpose === 'internet' && isSharedAddress(address) && !ownerSet) return `is in the provider's shared address space (100.64.0.0/10), not on the internet; write the address itself (an IP) in the setting to use it`;
  if (purpose === 'lan-device' && !home) return `is an internet address, but ${PURPOSE_WORDS[purpose]} must be on your home network (private, loopback or link-local)`;
  if (purpose === 'internet' && home && !ownerSet) {
    return `is on your home network (private, loopback or link-local), but ${PURPOSE_WORDS[purpose]} must be on the internet; write the address itself (an IP) in the setting to use a local one`;
  }
  return null;
}

/** The host part of a URL without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** `host:port` of a URL, the port spelled out even when it is the scheme's default. */
export function hostPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' || url.protocol === 'wss:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

/**
 * The one answer of a test or discovery route when the target gave no usable HTTP answer: the same
 * words for a closed port, a silent host and a service that does not speak HTTP (the detail goes to
 * the log only), so the route cannot be used to tell which ports are open.
 */
export function noHttpAnswer(url: URL | string): string {
  return `no HTTP answer from ${hostPort(typeof url === 'string' ? new URL(url) : url)}`;
}

/** A lookup function for sockets (net, http, ws) that always answers the one checked address. */
export function pinnedLookup(checked: CheckedAddress): net.LookupFunction {
  return ((_host: string, options: dns.LookupOptions, callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    if (options?.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  }) as net.LookupFunction;
}

export interface Outbound {
  /** Resolves `url`'s host and checks every address against the rule; throws OutboundRefused. */
  check(rule: OutboundRule, url: URL): Promise<CheckedAddress>;
  /** The same for a bare host name or IP (Modbus TCP). */
  checkHost(rule: OutboundRule, host: string): Promise<CheckedAddress>;
  /** An HTTP request through the gate: checked, then connected to the checked address. */
  fetch(rule: OutboundRule, url: string | URL, init?: RequestInit): Promise<Response>;
  /** A fetch bound to one rule (read on every request, so a live settings change applies). */
  fetcher(rule: OutboundRule | (() => OutboundRule)): GatedFetch;
}

export interface OutboundDeps {
  resolve?: Resolve;
  /**
   * The HTTP transport after the check. Default: Node's http/https client connected to the checked
   * address. Tests may pass a fetch of their own (it then does its own resolution of the same name).
   */
  transport?: Transport;
  /**
   * The longest any request through the gate waits, whatever its caller's own timeout (5-15 s for
   * the weather, webhooks, media servers and the box): tests give a silent host a short one.
   * Default: none, each caller's own. Running out is a TimeoutError, as the caller's own would be.
   */
  timeoutMs?: number;
}

export function createOutbound(deps: OutboundDeps = {}): Outbound {
  const resolve = deps.resolve ?? systemResolve;

  const checkHostFor = async (rule: OutboundRule, host: string, ownerSet: boolean): Promise<CheckedAddress> => {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    let addresses: CheckedAddress[];
    const family = net.isIP(bare);
    if (family) addresses = [{ address: bare, family: family === 6 ? 6 : 4 }];
    else {
      try {
        addresses = await resolve(bare);
      } catch (err) {
        throw new OutboundRefused(`cannot resolve ${bare} (${(err as NodeJS.ErrnoException).code ?? 'no address'})`);
      }
      if (!addresses.length) throw new OutboundRefused(`cannot resolve ${bare}`);
    }
    // Every address must pass: a name that resolves to one public and one private address is refused.
    for (const a of addresses) {
      const why = refusalFor(rule.purpose, a.address, ownerSet);
      if (why) throw new OutboundRefused(family ? `refused: ${a.address} ${why}` : `refused: ${bare} resolves to ${a.address}, which ${why}`);
    }
    return addresses[0]!;
  };

  const check = (rule: OutboundRule, url: URL) => checkHostFor(rule, url.hostname, rule.purpose === 'internet' && ownerSetAddress(rule, url));

  const gatedFetch = async (rule: OutboundRule, target: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (typeof target !== 'string' && !(target instanceof URL)) throw new TypeError('the outbound gate takes a URL, not a Request');
    const input = String(target);
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`refused: ${url.protocol} is not http or https`);
    const checked = await check(rule, url);
    if (deps.timeoutMs !== undefined) {
      const cap = AbortSignal.timeout(deps.timeoutMs);
      init = { ...init, signal: init.signal ? AbortSignal.any([init.signal, cap]) : cap };
    }
    if (deps.transport) return deps.transport(input, init);
    return nodeFetch(url, init, checked);
  };

  return {
    check,
    checkHost: (rule, host) => checkHostFor(rule, host, false),
    fetch: gatedFetch,
    fetcher: (rule) => (input, init) => gatedFetch(typeof rule === 'function' ? rule() : rule, input, init),
  };
}

function bodyBytes(body: RequestInit['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('the outbound gate sends string or byte bodies only');
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch on Node's http/https client, connected to `checked` (SNI and Host stay the URL's name).
 * Redirects are never followed: a 3xx is returned as is (`redirect: 'error'` makes it a failure),
 * since a redirect could point anywhere. Errors look like fetch's: `TypeError('fetch failed')` with
 * the socket error as `cause`; an aborted signal rejects with the signal's reason.
 */
function nodeFetch(url: URL, init: RequestInit, checked: CheckedAddress): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  const method = (init.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => {
    headers[k] = v;
  });
  const body = bodyBytes(init.body);
  if (body && !headers['content-type'] && typeof init.body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
  if (body && init.body instanceof URLSearchParams && !headers['content-type']) headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  if (body) headers['content-length'] = String(body.byteLength);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    const req = client.request({
      protocol: url.protocol,
      host: bareHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      agent: false,
      lookup: pinnedLookup(checked),
      ...(url.protocol === 'https:' && !net.isIP(bareHost(url)) ? { servername: bareHost(url) } : {}),
    });
    const onAbort = () => {
      const reason: unknown = signal?.reason;
      req.destroy(reason instanceof Error ? reason : new Error('aborted'));
      fail(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      fail(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599 || (init.redirect === 'error' && status >= 300 && status < 400)) {
        res.destroy();
        signal?.removeEventListener('abort', onAbort);
        fail(new TypeError('fetch failed', { cause: Object.assign(new Error(status >= 300 && status < 400 ? 'unexpected redirect' : `HTTP status ${status}`), { code: 'UND_ERR_INVALID_STATUS' }) }));
        return;
      }
      const h = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        try {
          h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        } catch {
          // A header value fetch would not accept: dropped.
        }
      }
      // Abort after the headers: the body stream errors with the signal's reason.
      signal?.removeEventListener('abort', onAbort);
      const onBodyAbort = () => res.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      signal?.addEventListener('abort', onBodyAbort, { once: true });
      res.once('close', () => signal?.removeEventListener('abort', onBodyAbort));
      const hasBody = method !== 'HEAD' && !NULL_BODY.has(status);
      if (!hasBody) res.resume();
      settled = true;
      resolve(new Response(hasBody ? (Readable.toWeb(res) as ReadableStream<Uint8Array>) : null, { status, statusText: res.statusMessage ?? '', headers: h }));
    });
    req.end(body ?? undefined);
  });
}
