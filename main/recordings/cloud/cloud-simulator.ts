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

export interface CloudSimulatorOptions {
  activationCode: string;
  pin: string;
  terminalId?: string;
  friendlyName?: string;
  /** The box's library as I_AM_ALIVE reports it (a function: it may follow the box simulator's). */
  recordings: () => SimCloudRecording[];
  host?: string;
}

/** How the simulated box and cloud misbehave (changeable between requests). */
export interface CloudBehaviour {
  /** Pings the box sleeps through on each connection (1: the first is missed, the resend answered). */
  sleepPings: number;
  /** Acknowledge deletes with empty arrays (the id is not recognised). */
  emptyAck: boolean;
  /** Close the socket when the delete arrives, before any acknowledgement. */
  closeBeforeAck: boolean;
  /** Close the socket right after answering the ping. */
  closeAfterAlive: boolean;
  /** Refuse the WebSocket upgrade (HTTP 401). */
  refuseSocket: boolean;
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
  /** Every message the cloud received (parsed), for assertions on the envelopes. */
  readonly received: Array<Record<string, unknown>>;
  /** Sign-ins refused for bad credentials. */
  refusedSignIns(): number;
}

/**
 * The box vendor's cloud on loopback: `/v3/authenticate` (form activation code + PIN, session
 * cookie `auth`, the account's boxes) and the WebSocket `/v2/message/ws/messages` where the box
 * answers `ARE_YOU_ALIVE` with its library and acknowledges `PENDING_DELETE_RECORDINGS_BY_ID`.
 */
export function createCloudSimulator(opts: CloudSimulatorOptions): CloudSimulator {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const terminalId = opts.terminalId ?? 'T-0001';
  const sessions = new Set<string>();
  const pending = new Set<string>();
  let refused = 0;
  let port = 0;

  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v3/authenticate') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ __meta__: { error: 'not_found', message: 'Not found' } }));
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
      if (form.get('activation_code') !== opts.activationCode || form.get('pin') !== opts.pin) {
        refused++;
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ __meta__: { error: 'invalid_credentials', message: 'Invalid activation code or PIN' } }));
        return;
      }
      const session = crypto.randomBytes(16).toString('hex');
      sessions.add(session);
      res
        .writeHead(200, { 'content-type': 'application/json', 'set-cookie': `auth=${session}; Path=/; HttpOnly` })
        .end(JSON.stringify({ terminals: [{ id: terminalId, friendly_name: opts.friendlyName ?? 'Lounge box', pvr: true, status: 'online', model: 'Mighty' }] }));
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
    let pings = 0;
    ws.on('message', (raw) => {
      let msg: { to?: string; message?: { type?: string; data?: { messageId?: string; recordingIds?: unknown } } };
      try {
        msg = JSON.parse(raw.toString()) as typeof msg;
      } catch {
        return;
      }
      sim.received.push(msg as Record<string, unknown>);
      const type = msg.message?.type;
      const messageId = msg.message?.data?.messageId;
      const reply = (t: string, data: Record<string, unknown>) => ws.send(JSON.stringify({ from: terminalId, message: { type: t, data: { messageId, ...data } } }));
      if (msg.to !== terminalId) return;
      if (type === 'ARE_YOU_ALIVE') {
        pings++;
        if (pings <= sim.behaviour.sleepPings) return;
        reply('I_AM_ALIVE', {
          recordings: opts.recordings().map((r, i) => ({ id: r.id, dlnaId: r.dlnaId, diskId: 1, name: r.name, seriesNumber: 1, episodeNumber: i + 1, size: 1000, pendingDelete: r.pendingDelete === true || pending.has(r.id) })),
        });
        if (sim.behaviour.closeAfterAlive) ws.close();
        return;
      }
      if (type === 'PENDING_DELETE_RECORDINGS_BY_ID') {
        if (sim.behaviour.closeBeforeAck) {
          ws.terminate();
          return;
        }
        const ids = Array.isArray(msg.message?.data?.recordingIds) ? (msg.message.data.recordingIds as unknown[]).map(String) : [];
        const known = sim.behaviour.emptyAck ? [] : ids.filter((id) => opts.recordings().some((r) => r.id === id));
        for (const id of known) {
          pending.add(id);
          sim.deleted.push(id);
        }
        reply('PENDING_DELETE_RECORDINGS_BY_ID_SUCCESS', { recordingsIds: known, restorationTimestamps: known.map(() => Date.now() + 7 * 86_400_000) });
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
    behaviour: { sleepPings: 0, emptyAck: false, closeBeforeAck: false, closeAfterAlive: false, refuseSocket: false },
    deleted: [],
    received: [],
    refusedSignIns: () => refused,
  };
  return sim;
}
