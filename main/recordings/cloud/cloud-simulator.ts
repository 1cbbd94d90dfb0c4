import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { assertLoopback } from '../box/simulator/loopback.js';

export interface SimCloudRecording {
  id: string;
  dlnaId: string;
  name: string;
  pendingDelete?: boolean;
}

/** One box on the account. */
export interface SimCloudBox {
  terminalId: string;
  friendlyName?: string;
  /** The box's library as its I_AM_ALIVE reports it (a function: it may follow the box simulator's). */
  recordings: () => SimCloudRecording[];
}

export interface CloudSimulatorOptions {
  activationCode: string;
  pin: string;
  /** The account's boxes, in the order the sign-in lists them. Without it: one box from the three options below. */
  boxes?: SimCloudBox[];
  terminalId?: string;
  friendlyName?: string;
  recordings?: () => SimCloudRecording[];
  host?: string;
}

/** How the simulated boxes and cloud misbehave (changeable between requests). */
export interface CloudBehaviour {
  /** Pings every box sleeps through on each connection (1: the first is missed, the resend answered). */
  sleepPings: number;
  /** Boxes (terminal ids) that sleep through every ping. */
  asleep: string[];
  /** Boxes whose replies come late: held until the cloud relays a message to another box. */
  late: string[];
  /** Acknowledge deletes with empty arrays (the id is not recognised). */
  emptyAck: boolean;
  /** Close the socket when the delete arrives, before any acknowledgement. */
  closeBeforeAck: boolean;
  /** Close the socket right after answering the ping. */
  closeAfterAlive: boolean;
  /** Refuse the WebSocket upgrade (HTTP 401). */
  refuseSocket: boolean;
  /** Refuse a bad activation code or PIN with HTTP 200, `__meta__.error` and an anonymous session (instead of a 401). */
  refuseWith200: boolean;
  /** List the boxes under `account.terminals` instead of at the top level of the sign-in answer. */
  terminalsUnderAccount: boolean;
  /** Events the box sends before each acknowledgement, on top of the usual traffic. */
  eventsBeforeAck: number;
}

export interface CloudSimulator {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Base URL of the cloud API (`http://127.0.0.1:<port>`). */
  readonly apiUrl: string;
  /** Base URL of the cloud WebSocket (`ws://127.0.0.1:<port>`). */
  readonly wsUrl: string;
  readonly behaviour: CloudBehaviour;
  /** Cloud ids acknowledged as deleted, in order. */
  readonly deleted: string[];
  /** The same deletes with the box each was sent to. */
  readonly deletes: Array<{ terminalId: string; id: string }>;
  /** Every message the cloud received (parsed), for assertions on the envelopes. */
  readonly received: Array<Record<string, unknown>>;
  /** Messages the box ignored and why (wrong flags, fields in the wrong place, an unknown box). */
  readonly ignored: Array<{ type: string; why: string }>;
  /** Sign-ins refused for bad credentials. */
  refusedSignIns(): number;
}

interface Envelope {
  to?: unknown;
  message?: Record<string, unknown> & { type?: unknown; data?: { messageId?: unknown } };
}

/**
 * Why the real box would not act on this message (null: it does). Written from the vendor's public
 * clients independently of our client's code, so a mistake on one side fails the tests: the ping only
 * with `isQueueable: true, requiresSetTopBox: false, onlyPairedSetTopBox: true`; the delete only with
 * `false / true / false` and `recordingIds` plus the three `...EventRequired: false` at message level.
 */
function refusal(m: NonNullable<Envelope['message']>): string | null {
  const flags = (q: boolean, r: boolean, p: boolean) => m.isQueueable === q && m.requiresSetTopBox === r && m.onlyPairedSetTopBox === p;
  if (m.type === 'ARE_YOU_ALIVE') return flags(true, false, true) ? null : 'ARE_YOU_ALIVE without isQueueable true, requiresSetTopBox false, onlyPairedSetTopBox true';
  if (m.type === 'PENDING_DELETE_RECORDINGS_BY_ID') {
    if (!flags(false, true, false)) return 'delete without isQueueable false, requiresSetTopBox true, onlyPairedSetTopBox false';
    if (!Array.isArray(m.recordingIds)) return 'delete without recordingIds at message level';
    if (m.startEventRequired !== false || m.progressEventRequired !== false || m.endEventRequired !== false) return 'delete without the three ...EventRequired: false at message level';
  }
  return null;
}

/**
 * The box vendor's cloud on loopback: `/v3/authenticate` (form activation code + PIN, session
 * cookie `auth`, the account's boxes, `__meta__` on every answer) and the WebSocket
 * `/v2/message/ws/messages`, where each box answers a correctly flagged `ARE_YOU_ALIVE` with its
 * library and acknowledges a correctly formed `PENDING_DELETE_RECORDINGS_BY_ID`, after other traffic.
 * Replies name their box in the top-level `sender`.
 */
export function createCloudSimulator(opts: CloudSimulatorOptions): CloudSimulator {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const boxes: SimCloudBox[] = opts.boxes ?? [{ terminalId: opts.terminalId ?? 'T-0001', friendlyName: opts.friendlyName ?? 'Lounge box', recordings: opts.recordings ?? (() => []) }];
  const sessions = new Set<string>();
  /** `<terminal> <cloud id>` of recordings pending deletion. */
  const pending = new Set<string>();
  let refused = 0;
  let port = 0;

  const json = (res: http.ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const ok = { __meta__: { error: null, message: null } };

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v3/authenticate') {
      json(res, 404, { __meta__: { error: 'not_found', message: 'Not found' } });
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
      if (body.length > 4096) req.destroy();
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const session = crypto.randomBytes(16).toString('hex');
      const cookie = { 'set-cookie': `auth=${session}; Path=/; HttpOnly` };
      if (form.get('activation_code') !== opts.activationCode || form.get('pin') !== opts.pin) {
        refused++;
        const meta = { __meta__: { error: 'invalid_credentials', message: 'Invalid activation code or PIN' } };
        if (sim.behaviour.refuseWith200) json(res, 200, { ...meta, terminals: [] }, cookie);
        else json(res, 401, meta);
        return;
      }
      sessions.add(session);
      const terminals = boxes.map((b) => ({ id: b.terminalId, friendly_name: b.friendlyName ?? b.terminalId, pvr: true, status: 'online', model: 'Mighty' }));
      json(res, 200, sim.behaviour.terminalsUnderAccount ? { ...ok, account: { terminals } } : { ...ok, terminals }, cookie);
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const session = /(?:^|;\s*)auth=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (req.url !== '/v2/message/ws/messages' || sim.behaviour.refuseSocket || !session || !sessions.has(session)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws));
  });

  const onConnection = (ws: WebSocket) => {
    const pings = new Map<string, number>();
    /** Replies of late boxes, sent once the cloud relays a message to another box. */
    const held = new Map<string, string[]>();
    const send = (box: SimCloudBox, type: string, data: Record<string, unknown>) => {
      const frame = JSON.stringify({ sender: box.terminalId, message: { type, data } });
      if (sim.behaviour.late.includes(box.terminalId)) held.set(box.terminalId, [...(held.get(box.terminalId) ?? []), frame]);
      else ws.send(frame);
    };
    ws.on('message', (raw) => {
      let msg: Envelope;
      try {
        msg = JSON.parse(raw.toString()) as Envelope;
      } catch {
        return;
      }
      sim.received.push(msg as Record<string, unknown>);
      const m = msg.message;
      if (!m || typeof m !== 'object') return;
      const type = String(m.type);
      const box = boxes.find((b) => b.terminalId === msg.to);
      if (!box) {
        sim.ignored.push({ type, why: `no box ${String(msg.to)} on this account` });
        return;
      }
      for (const [id, frames] of held) {
        if (id === box.terminalId) continue;
        for (const f of frames) ws.send(f);
        held.delete(id);
      }
      const why = refusal(m);
      if (why) {
        sim.ignored.push({ type, why });
        return;
      }
      const messageId = m.data?.messageId;
      if (type === 'ARE_YOU_ALIVE') {
        const n = (pings.get(box.terminalId) ?? 0) + 1;
        pings.set(box.terminalId, n);
        if (n <= sim.behaviour.sleepPings || sim.behaviour.asleep.includes(box.terminalId)) return;
        send(box, 'I_AM_ALIVE', {
          messageId,
          recordings: box
            .recordings()
            .map((r, i) => ({ id: r.id, dlnaId: r.dlnaId, diskId: 1, name: r.name, seriesNumber: 1, episodeNumber: i + 1, size: 1000, pendingDelete: r.pendingDelete === true || pending.has(`${box.terminalId} ${r.id}`) })),
        });
        if (sim.behaviour.closeAfterAlive) ws.close();
        return;
      }
      if (type === 'PENDING_DELETE_RECORDINGS_BY_ID') {
        if (sim.behaviour.closeBeforeAck) {
          ws.terminate();
          return;
        }
        const ids = (m.recordingIds as unknown[]).map(String);
        const known = sim.behaviour.emptyAck ? [] : ids.filter((id) => box.recordings().some((r) => r.id === id));
        // What the real cloud sends around an acknowledgement: a fragment without a type, the box's
        // own events, and the other boxes' traffic (here: another app's delete there, not recognised).
        ws.send(JSON.stringify({ message: { frag: 'SUBSCRIPTIONS_INITIALISED' } }));
        for (let i = 0; i < 1 + sim.behaviour.eventsBeforeAck; i++) send(box, 'RECORDINGS_UPDATE', { recordingUpdates: [{ eventName: 'RECORDING_UPDATED', recording: { id: ids[0] } }] });
        for (const other of boxes) if (other !== box) send(other, 'PENDING_DELETE_RECORDINGS_BY_ID_SUCCESS', { recordingsIds: [], restorationTimestamps: [] });
        for (const id of known) {
          pending.add(`${box.terminalId} ${id}`);
          sim.deleted.push(id);
          sim.deletes.push({ terminalId: box.terminalId, id });
        }
        send(box, 'PENDING_DELETE_RECORDINGS_BY_ID_SUCCESS', { messageId, recordingsIds: known, restorationTimestamps: known.map(() => Date.now() + 7 * 86_400_000) });
      }
    });
  };

  const sim: CloudSimulator = {
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve());
      });
      port = (server.address() as AddressInfo).port;
    },
    async stop() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    get apiUrl() {
      return `http://${host}:${port}`;
    },
    get wsUrl() {
      return `ws://${host}:${port}`;
    },
    behaviour: {
      sleepPings: 0,
      asleep: [],
      late: [],
      emptyAck: false,
      closeBeforeAck: false,
      closeAfterAlive: false,
      refuseSocket: false,
      refuseWith200: false,
      terminalsUnderAccount: false,
      eventsBeforeAck: 0,
    },
    deleted: [],
    deletes: [],
    received: [],
    ignored: [],
    refusedSignIns: () => refused,
  };
  return sim;
}
