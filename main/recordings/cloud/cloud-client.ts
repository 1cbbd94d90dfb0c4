import type WebSocket from 'ws';
import { z } from 'zod';
import { noHttpAnswer, OutboundRefused, pinnedLookup, type CheckedAddress } from '../../core/outbound.js';
import { fetchBounded, ResponseTooLargeError } from '../box/bounded-fetch.js';
import { displayText, type FetchLike } from '../box/description.js';

/** Where a cloud delete failed (logged and returned with every failure). */
export type CloudStage = 'auth' | 'ws' | 'handshake' | 'translate' | 'send' | 'ack';

/** A cloud failure safe to show and log: never carries the activation code, the PIN or the session. */
export class CloudError extends Error {
  constructor(
    readonly stage: CloudStage,
    message: string,
  ) {
    super(message);
  }
}

export interface CloudAccount {
  apiUrl: string;
  wsUrl: string;
  activationCode: string;
  pin: string;
}

export interface CloudTimings {
  /** The authentication request, body included. */
  requestTimeoutMs: number;
  /** Opening the WebSocket. */
  connectTimeoutMs: number;
  /** One `ARE_YOU_ALIVE` wait (spec: 10 s). */
  pingTimeoutMs: number;
  /** Pings sent before "retry shortly" (spec: 2). */
  pingAttempts: number;
  /** Waiting for the delete acknowledgement. */
  ackTimeoutMs: number;
}

/** The spec's handshake (2 attempts x 10 s) and bounded waits elsewhere. */
export const CLOUD_TIMINGS: CloudTimings = { requestTimeoutMs: 10_000, connectTimeoutMs: 10_000, pingTimeoutMs: 10_000, pingAttempts: 2, ackTimeoutMs: 15_000 };

/** Largest authentication answer read; largest WebSocket message accepted (a library of a few thousand recordings). */
export const MAX_AUTH_BYTES = 256 * 1024;
export const MAX_WS_MESSAGE_BYTES = 8 * 1024 * 1024;
const MAX_TERMINALS = 16;
const MAX_LIBRARY = 20_000;

export const AUTH_PATH = 'v3/authenticate';
export const WS_PATH = 'v2/message/ws/messages';

export interface Terminal {
  id: string;
  friendly_name: string;
  pvr: boolean;
  status: string;
}

export interface CloudRecording {
  /** The cloud's id (what the delete names). */
  id: string;
  /** The DLNA item id (the stored `box_id`). */
  dlnaId: string;
  name: string;
  pendingDelete: boolean;
}

const idText = z.union([z.string().max(128), z.number()]).transform(String);
const terminalSchema = z.object({ id: idText, friendly_name: z.unknown().optional(), pvr: z.unknown().optional(), status: z.unknown().optional() }).passthrough();
const authSchema = z.object({ terminals: z.unknown().optional(), account: z.unknown().optional() }).passthrough();
const recordingSchema = z.object({ id: idText, dlnaId: idText.optional(), name: z.unknown().optional(), pendingDelete: z.unknown().optional() }).passthrough();

const joinUrl = (base: string, path: string) => new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
const wsEndpoint = (base: string) => (/\/messages\/?$/.test(new URL(base).pathname) ? base : joinUrl(base, WS_PATH));
const text = (v: unknown, max: number) => displayText(typeof v === 'string' ? v : '', max);

/**
 * The error a cloud answer carries in `__meta__` (the cloud also answers 200 with one), in plain words;
 * null when `__meta__.error` is absent or empty (a good answer carries `__meta__` with `error: null`).
 */
function metaError(json: unknown): string | null {
  const meta = json && typeof json === 'object' ? (json as { __meta__?: unknown }).__meta__ : undefined;
  if (!meta || typeof meta !== 'object') return null;
  const { error, message } = meta as { error?: unknown; message?: unknown };
  if (error === undefined || error === null || error === false || error === '') return null;
  return text(message, 200) || text(typeof error === 'string' ? error.replace(/[_-]+/g, ' ') : '', 100) || 'an error without a description';
}

/** The account's boxes: `terminals` at the top level of the sign-in answer, or under `account`. */
function terminalsOf(body: { terminals?: unknown; account?: unknown }): unknown[] {
  if (Array.isArray(body.terminals) && body.terminals.length) return body.terminals;
  const nested = body.account && typeof body.account === 'object' ? (body.account as { terminals?: unknown }).terminals : undefined;
  return Array.isArray(nested) ? nested : [];
}

function need(account: CloudAccount): void {
  const missing = [
    !account.apiUrl && 'cloud_api_url',
    !account.wsUrl && 'cloud_ws_url',
    !account.activationCode && 'cloud_activation_code',
    !account.pin && 'cloud_pin',
  ].filter(Boolean);
  if (missing.length) throw new CloudError('auth', `the cloud account is not set up: set ${missing.join(', ')}`);
}

/**
 * Signs in with the activation code and PIN (form POST to `/v3/authenticate`); returns the session
 * cookie and the account's boxes. The answer is bounded in size and time; errors carry the cloud's
 * `__meta__` message, cleaned, never the credentials.
 */
export async function authenticate(fetchFn: FetchLike, account: CloudAccount, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<{ cookie: string; terminals: Terminal[] }> {
  need(account);
  const body = new URLSearchParams({ activation_code: account.activationCode, pin: account.pin }).toString();
  let res;
  try {
    res = await fetchBounded(
      fetchFn,
      joinUrl(account.apiUrl, AUTH_PATH),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'X-FTV-Capabilities': 'no_pin,android,v3.21.1.4988,tenplay_v2',
          'X-FTV-Timeout': '3',
          'X-FTV-DeviceID': 'recording-sync',
        },
        body,
      },
      { maxBytes: MAX_AUTH_BYTES, timeoutMs: opts.timeoutMs, signal: opts.signal, what: 'the cloud sign-in answer' },
    );
  } catch (err) {
    if (err instanceof OutboundRefused) throw new CloudError('auth', `cloud_api_url: ${err.message}`);
    if (err instanceof ResponseTooLargeError) throw new CloudError('auth', err.message);
    // A closed port, a silent host and a service that does not speak HTTP read the same.
    throw new CloudError('auth', `cannot reach the cloud: ${noHttpAnswer(account.apiUrl)}`);
  }
  let json: unknown = null;
  try {
    json = JSON.parse(res.text);
  } catch {
    // handled below
  }
  // Read on every answer, not only on non-2xx: the cloud refuses with a 200 and `__meta__.error` too.
  const refused = metaError(json);
  if (!res.ok || refused) throw new CloudError('auth', `the cloud refused the sign-in: ${refused ?? `HTTP ${res.status}`}`);
  const parsed = authSchema.safeParse(json);
  if (!parsed.success) throw new CloudError('auth', 'the cloud sign-in answer is not the expected JSON');
  const cookie = res.headers
    .getSetCookie()
    .map((c) => /^\s*auth=([^;]*)/.exec(c)?.[1])
    .find((v): v is string => !!v);
  if (!cookie || cookie.length > 4096) throw new CloudError('auth', 'the cloud sign-in answer has no session');
  const terminals: Terminal[] = [];
  for (const raw of terminalsOf(parsed.data)) {
    const t = terminalSchema.safeParse(raw);
    if (!t.success || terminals.length >= MAX_TERMINALS) continue;
    terminals.push({ id: displayText(t.data.id, 128), friendly_name: text(t.data.friendly_name, 120), pvr: t.data.pvr === true || t.data.pvr === 1, status: text(t.data.status, 40) });
  }
  return { cookie, terminals };
}

interface Incoming {
  /** The box the message comes from (the envelope's top-level `sender`); null when it names none. */
  sender: string | null;
  type: string;
  data: Record<string, unknown>;
}

/** Messages kept while nobody waits; past this the oldest go (a busy account sends events all the time). */
const MAX_QUEUED = 64;

/** One WebSocket to the cloud: messages are queued until someone waits for them. */
class CloudSocket {
  private queue: Incoming[] = [];
  private waiter: (() => void) | null = null;
  private closed = false;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw: WebSocket.RawData) => {
      let msg: unknown;
      try {
        msg = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      const m = ((msg as { message?: unknown }).message ?? msg) as { type?: unknown; data?: unknown };
      if (typeof m.type !== 'string') return;
      const from = (msg as { sender?: unknown }).sender;
      const sender = typeof from === 'string' || typeof from === 'number' ? String(from).slice(0, 128) : null;
      if (this.queue.length >= MAX_QUEUED) this.queue.shift();
      this.queue.push({ sender, type: m.type.slice(0, 100), data: m.data && typeof m.data === 'object' ? (m.data as Record<string, unknown>) : {} });
      this.waiter?.();
    });
    ws.on('close', () => {
      this.closed = true;
      this.waiter?.();
    });
    ws.on('error', () => {
      this.closed = true;
      this.waiter?.();
    });
  }

  /** Opens the channel; `checked` is the address the outbound gate approved (the socket connects there). */
  static async open(url: string, cookie: string, timeoutMs: number, checked?: CheckedAddress): Promise<CloudSocket> {
    // ws (with the TLS, HTTPS and zlib modules it loads) only once a sync deletes in the cloud.
    const { default: WebSocketClient } = await import('ws');
    return new Promise((resolve, reject) => {
      let ws: WebSocket;
      try {
        ws = new WebSocketClient(url, {
          headers: { Cookie: `auth=${cookie}` },
          handshakeTimeout: timeoutMs,
          maxPayload: MAX_WS_MESSAGE_BYTES,
          followRedirects: false,
          ...(checked ? { lookup: pinnedLookup(checked) } : {}),
        });
      } catch (err) {
        reject(new CloudError('ws', `cannot open the cloud channel: ${(err as Error).message}`));
        return;
      }
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        ws.terminate();
        reject(new CloudError('ws', `the cloud refused the channel (HTTP ${res.statusCode ?? '?'})`));
      });
      ws.once('error', (err) => reject(new CloudError('ws', `cannot open the cloud channel: ${err.message}`)));
      ws.once('open', () => resolve(new CloudSocket(ws)));
    });
  }

  get isOpen(): boolean {
    return !this.closed && this.ws.readyState === this.ws.OPEN;
  }

  send(envelope: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject(new Error('the connection is closed'));
        return;
      }
      this.ws.send(JSON.stringify(envelope), (err) => (err ? reject(err) : resolve()));
    });
  }

  /**
   * The next message matching `accept` within `timeoutMs`: `timeout`, `closed`, or the message. The
   * messages before it that do not match (events, other boxes' traffic) are dropped unread.
   */
  async next(accept: (m: Incoming) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<Incoming | 'timeout' | 'closed'> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let m = this.queue.shift(); m; m = this.queue.shift()) if (accept(m)) return m;
      if (this.closed) return 'closed';
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return 'timeout';
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          this.waiter = null;
          resolve();
        };
        const t = setTimeout(done, left);
        signal?.addEventListener('abort', done, { once: true });
        this.waiter = done;
      });
    }
  }

  close(): void {
    this.ws.terminate();
  }
}

/**
 * The envelope flags of each message we send, as the box acts on them (checked against two public
 * clients of the real cloud): with other flags the box ignores the ping (no `I_AM_ALIVE` on a fresh
 * session) or the delete.
 */
const FLAGS = {
  ARE_YOU_ALIVE: { isQueueable: true, requiresSetTopBox: false, onlyPairedSetTopBox: true },
  PENDING_DELETE_RECORDINGS_BY_ID: { isQueueable: false, requiresSetTopBox: true, onlyPairedSetTopBox: false },
} as const;

/** `{ to, message: { type, <flags>, ...extra, data: { messageId, ...data } } }`: `extra` sits at message level, beside `type`. */
const envelope = (terminalId: string, type: keyof typeof FLAGS, now: number, extra: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  to: terminalId,
  message: {
    type,
    ...FLAGS[type],
    ...extra,
    data: { messageId: `${terminalId}_${now}`, ...data },
  },
});

export interface CloudDeleteResult {
  cloud_id: string;
  terminal_id: string;
  /** The box already had the recording pending deletion: nothing was sent. */
  already_pending: boolean;
}

export interface CloudDeps {
  fetch: FetchLike;
  /** The outbound gate's check of the channel's address (internet purpose); the socket connects to the address it returns. */
  checkChannel?: (url: URL) => Promise<CheckedAddress>;
  now(): number;
  timings?: Partial<CloudTimings>;
  /** The box asked first (the one the last delete found its recording on): a sleeping other box then costs nothing. */
  preferTerminal?: string | null;
}

/**
 * Deletes one recording from the box through the vendor cloud: sign in, open the channel, ask each of
 * the account's boxes in turn (`ARE_YOU_ALIVE`, resent once) for its library until one has the DLNA id,
 * translate it to the cloud id, send the soft delete to that box and wait for its acknowledgement.
 * Replies count only from the box they name as `sender`; a box that does not answer is passed over.
 * An acknowledgement with empty arrays means the cloud did not recognise the id: a failure. Throws
 * CloudError naming the stage.
 */
export async function cloudDelete(deps: CloudDeps, account: CloudAccount, boxId: string, signal?: AbortSignal): Promise<CloudDeleteResult> {
  const t = { ...CLOUD_TIMINGS, ...deps.timings };
  const auth = await authenticate(deps.fetch, account, { timeoutMs: t.requestTimeoutMs, signal });
  const recorders = auth.terminals.filter((b) => b.pvr).length ? auth.terminals.filter((b) => b.pvr) : auth.terminals;
  const boxes = [...recorders.filter((b) => b.id === deps.preferTerminal), ...recorders.filter((b) => b.id !== deps.preferTerminal)];
  if (!boxes.length) throw new CloudError('auth', 'the cloud account has no recording box');
  let url: string;
  try {
    url = wsEndpoint(account.wsUrl);
  } catch {
    throw new CloudError('ws', 'cloud_ws_url is not a valid URL');
  }
  let checked: CheckedAddress | undefined;
  try {
    checked = await deps.checkChannel?.(new URL(url));
  } catch (err) {
    throw new CloudError('ws', `cloud_ws_url: ${(err as Error).message}`);
  }
  const socket = await CloudSocket.open(url, auth.cookie, t.connectTimeoutMs, checked);
  try {
    const { terminal, recording } = await findRecording(socket, boxes, boxId, deps.now, t, signal);
    if (recording.pendingDelete) return { cloud_id: recording.id, terminal_id: terminal.id, already_pending: true };
    const type = 'PENDING_DELETE_RECORDINGS_BY_ID';
    const ids = [recording.id];
    // Let frames that already arrived (a close right after the handshake) land before sending.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await socket.send(envelope(terminal.id, type, deps.now(), { recordingIds: ids, startEventRequired: false, progressEventRequired: false, endEventRequired: false }, { recordingIds: ids }));
    } catch (err) {
      throw new CloudError('send', `cannot send the delete to the cloud: ${(err as Error).message}`);
    }
    // Events and other boxes' traffic may come first: only this box's answer to a delete counts.
    const ack = await socket.next((m) => m.sender === terminal.id && m.type.startsWith(type), t.ackTimeoutMs, signal);
    if (ack === 'closed') throw new CloudError('ack', 'the cloud closed the connection before acknowledging the delete');
    if (ack === 'timeout') throw new CloudError('ack', `no acknowledgement of the delete within ${Math.round(t.ackTimeoutMs / 1000)} s`);
    if (ack.type !== `${type}_SUCCESS`) throw new CloudError('ack', `the cloud answered ${displayText(ack.type, 80)} to the delete`);
    const acked = Array.isArray(ack.data.recordingsIds) ? ack.data.recordingsIds.map(String) : [];
    const stamps = Array.isArray(ack.data.restorationTimestamps) ? ack.data.restorationTimestamps : [];
    if (!acked.length || !stamps.length) throw new CloudError('ack', `the cloud did not recognise recording ${boxId} (cloud id ${recording.id}): empty acknowledgement`);
    if (!acked.includes(recording.id)) throw new CloudError('ack', `the cloud acknowledged other recordings, not ${recording.id}`);
    return { cloud_id: recording.id, terminal_id: terminal.id, already_pending: false };
  } finally {
    socket.close();
  }
}

const boxName = (b: Terminal) => (b.friendly_name ? `${b.friendly_name} (${b.id})` : b.id);

/**
 * The box whose library has `boxId`, asking the boxes in the account's order. A box that does not
 * answer is passed over; when no box that answered has the recording, a silent one makes it a
 * handshake failure (retry shortly), otherwise a translate failure.
 */
async function findRecording(socket: CloudSocket, boxes: Terminal[], boxId: string, now: () => number, t: CloudTimings, signal?: AbortSignal): Promise<{ terminal: Terminal; recording: CloudRecording }> {
  const silent: Terminal[] = [];
  for (const terminal of boxes) {
    const library = await ping(socket, terminal.id, now, t, signal);
    if (!library) {
      silent.push(terminal);
      continue;
    }
    const recording = library.find((r) => r.dlnaId === boxId);
    if (recording) return { terminal, recording };
  }
  if (silent.length) {
    const who = boxes.length === 1 ? 'the box' : `${silent.length === 1 ? 'box' : 'boxes'} ${silent.map(boxName).join(', ')}`;
    const rest = silent.length < boxes.length ? ` (the others do not have recording ${boxId})` : '';
    throw new CloudError('handshake', `${who} did not answer the cloud (${t.pingAttempts} pings of ${Math.round(t.pingTimeoutMs / 1000)} s)${rest}: it may be asleep, retry shortly`);
  }
  throw new CloudError('translate', `recording ${boxId} is not in the box's library as the cloud reports it (already deleted on the box, or another box)`);
}

/** The library `terminalId` reports in its `I_AM_ALIVE` (only a reply whose `sender` is that box), or null when it does not answer. */
async function ping(socket: CloudSocket, terminalId: string, now: () => number, t: CloudTimings, signal?: AbortSignal): Promise<CloudRecording[] | null> {
  for (let attempt = 1; attempt <= t.pingAttempts; attempt++) {
    try {
      await socket.send(envelope(terminalId, 'ARE_YOU_ALIVE', now()));
    } catch {
      throw new CloudError('handshake', 'the cloud closed the connection during the handshake');
    }
    const reply = await socket.next((m) => m.type === 'I_AM_ALIVE' && m.sender === terminalId, t.pingTimeoutMs, signal);
    if (reply === 'closed') throw new CloudError('handshake', 'the cloud closed the connection during the handshake');
    if (reply === 'timeout') {
      if (signal?.aborted) throw new CloudError('handshake', 'stopped during the handshake');
      continue;
    }
    const list = Array.isArray(reply.data.recordings) ? reply.data.recordings.slice(0, MAX_LIBRARY) : [];
    const out: CloudRecording[] = [];
    for (const raw of list) {
      const r = recordingSchema.safeParse(raw);
      if (!r.success || r.data.dlnaId === undefined) continue;
      out.push({ id: r.data.id, dlnaId: r.data.dlnaId, name: text(r.data.name, 200), pendingDelete: r.data.pendingDelete === true });
    }
    return out;
  }
  return null;
}
