/**
 * A HomeKit controller over IP for the tests: the iOS side of Pair Setup (SRP-6a, 3072-bit, then
 * Ed25519 long-term keys exchanged under ChaCha20-Poly1305) and Pair Verify (X25519 session, then
 * the encrypted HAP session), written from the HomeKit Accessory Protocol spec with Node's crypto
 * and fast-srp-hap (the SRP the accessory side also uses; no npm HomeKit controller installs here:
 * hap-controller pulls a native BLE stack). Loopback only, bounded sizes and times.
 */
import crypto, { type KeyObject } from 'node:crypto';
import net from 'node:net';
import { SRP, SrpClient } from 'fast-srp-hap';

const T = { method: 0x00, identifier: 0x01, salt: 0x02, publicKey: 0x03, proof: 0x04, encryptedData: 0x05, state: 0x06, error: 0x07, signature: 0x0a } as const;
export const TLV_ERROR = { unknown: 1, authentication: 2, backoff: 3, maxPeers: 4, maxTries: 5, unavailable: 6, busy: 7 } as const;

const MAX_RESPONSE = 1 << 20;
const TIMEOUT_MS = 15_000;

export function encodeTlv(items: Array<[number, Buffer | number]>): Buffer {
  const out: Buffer[] = [];
  for (const [type, raw] of items) {
    const value = typeof raw === 'number' ? Buffer.from([raw]) : raw;
    if (value.length === 0) out.push(Buffer.from([type, 0]));
    for (let i = 0; i < value.length; i += 255) {
      const chunk = value.subarray(i, i + 255);
      out.push(Buffer.from([type, chunk.length]), chunk);
    }
  }
  return Buffer.concat(out);
}

export function decodeTlv(buf: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let last = -1;
  for (let i = 0; i + 2 <= buf.length; ) {
    const type = buf[i]!;
    const len = buf[i + 1]!;
    const value = buf.subarray(i + 2, i + 2 + len);
    out.set(type, type === last && out.has(type) ? Buffer.concat([out.get(type)!, value]) : value);
    last = type;
    i += 2 + len;
  }
  return out;
}

const hkdf = (ikm: Buffer, salt: string, info: string) => Buffer.from(crypto.hkdfSync('sha512', ikm, salt, info, 32));
const nonceOf = (label: string) => Buffer.concat([Buffer.alloc(4), Buffer.from(label)]);

function seal(key: Buffer, nonce: Buffer, plain: Buffer, aad?: Buffer): Buffer {
  const c = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  if (aad) c.setAAD(aad, { plaintextLength: plain.length });
  return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
}

function open(key: Buffer, nonce: Buffer, sealed: Buffer, aad?: Buffer): Buffer {
  const d = crypto.createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  if (aad) d.setAAD(aad, { plaintextLength: sealed.length - 16 });
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
}

const rawPublic = (k: KeyObject) => Buffer.from(k.export({ format: 'jwk' }).x!, 'base64url');
const okpPublic = (crv: 'Ed25519' | 'X25519', raw: Buffer) => crypto.createPublicKey({ key: { kty: 'OKP', crv, x: raw.toString('base64url') }, format: 'jwk' });

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Parses one HTTP/1.1 response from `buf`; null until it is complete. */
function parseResponse(buf: Buffer): { res: HttpResponse; rest: Buffer } | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^(?:HTTP|EVENT)\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let pos = end + 4;
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', pos);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.subarray(pos, lineEnd).toString('latin1'), 16);
      if (buf.length < lineEnd + 2 + size + 2) return null;
      if (size === 0) return { res: { status, headers, body: Buffer.concat(parts) }, rest: buf.subarray(lineEnd + 4) };
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      pos = lineEnd + 2 + size + 2;
    }
  }
  const len = Number(headers['content-length'] ?? 0);
  if (buf.length < pos + len) return null;
  return { res: { status, headers, body: buf.subarray(pos, pos + len) }, rest: buf.subarray(pos + len) };
}

function request(method: string, path: string, body?: Buffer, contentType?: string): Buffer {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: bridge'];
  if (body) head.push(`Content-Type: ${contentType}`, `Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), body ?? Buffer.alloc(0)]);
}

/** One TCP connection to the accessory: plain until `encrypt` is called after Pair Verify. */
class Connection {
  private buf: Buffer = Buffer.alloc(0);
  private plainBuf: Buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  private closed = false;
  private keys: { write: Buffer; read: Buffer; wn: bigint; rn: bigint } | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      if (this.buf.length > MAX_RESPONSE) socket.destroy(new Error('response too large'));
      this.decryptFrames();
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(host: string, port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ host, port });
      s.setTimeout(TIMEOUT_MS, () => s.destroy(new Error('timeout')));
      s.once('connect', () => resolve(new Connection(s)));
      s.once('error', reject);
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  private decryptFrames() {
    if (!this.keys) {
      this.plainBuf = Buffer.concat([this.plainBuf, this.buf]);
      this.buf = Buffer.alloc(0);
      return;
    }
    while (this.buf.length >= 2) {
      const len = this.buf.readUInt16LE(0);
      if (this.buf.length < 2 + len + 16) return;
      const nonce = Buffer.alloc(12);
      nonce.writeBigUInt64LE(this.keys.rn++, 4);
      const plain = open(this.keys.read, nonce, this.buf.subarray(2, 2 + len + 16), this.buf.subarray(0, 2));
      this.plainBuf = Buffer.concat([this.plainBuf, plain]);
      this.buf = this.buf.subarray(2 + len + 16);
    }
  }

  encrypt(write: Buffer, read: Buffer) {
    this.keys = { write, read, wn: 0n, rn: 0n };
  }

  private send(data: Buffer) {
    if (!this.keys) return this.socket.write(data);
    for (let i = 0; i < data.length; i += 1024) {
      const chunk = data.subarray(i, i + 1024);
      const aad = Buffer.alloc(2);
      aad.writeUInt16LE(chunk.length);
      const nonce = Buffer.alloc(12);
      nonce.writeBigUInt64LE(this.keys.wn++, 4);
      this.socket.write(Buffer.concat([aad, seal(this.keys.write, nonce, chunk, aad)]));
    }
    return true;
  }

  async exchange(method: string, path: string, body?: Buffer, contentType?: string): Promise<HttpResponse> {
    this.send(request(method, path, body, contentType));
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const parsed = parseResponse(this.plainBuf);
      if (parsed && parsed.res.status && !this.plainBuf.subarray(0, 5).equals(Buffer.from('EVENT'))) {
        this.plainBuf = parsed.rest;
        return parsed.res;
      }
      if (parsed) {
        this.plainBuf = parsed.rest; // an unsolicited event: skip it
        continue;
      }
      if (this.closed) throw new Error('connection closed by the accessory');
      if (Date.now() > deadline) throw new Error('no response in time');
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 500);
      });
    }
  }

  close() {
    this.socket.destroy();
  }
}

export class PairingError extends Error {
  constructor(
    readonly step: string,
    readonly tlvError: number,
  ) {
    super(`${step} refused (TLV error ${tlvError})`);
  }
}

const PAIRING_TLV = 'application/pairing+tlv8';

/** A controller identity (what an iPhone keeps) and the accessory's long-term key once paired. */
export class HapController {
  readonly pairingId = crypto.randomUUID().toUpperCase();
  private readonly ltk = crypto.generateKeyPairSync('ed25519');
  accessoryId: string | null = null;
  accessoryLtpk: Buffer | null = null;

  constructor(
    readonly host: string,
    public port: number,
  ) {}

  private async tlvPost(conn: Connection, path: string, items: Array<[number, Buffer | number]>, step: string): Promise<Map<number, Buffer>> {
    const res = await conn.exchange('POST', path, encodeTlv(items), PAIRING_TLV);
    if (res.status !== 200) throw new Error(`${step}: HTTP ${res.status}`);
    const tlv = decodeTlv(res.body);
    const err = tlv.get(T.error);
    if (err) throw new PairingError(step, err[0]!);
    return tlv;
  }

  /** Pair Setup with the setup code (M1-M6). */
  async pair(pin: string): Promise<void> {
    const conn = await Connection.connect(this.host, this.port);
    try {
      const m2 = await this.tlvPost(conn, '/pair-setup', [[T.state, 1], [T.method, 0]], 'pair-setup M1');
      const srp = new SrpClient(SRP.params.hap, m2.get(T.salt)!, Buffer.from('Pair-Setup'), Buffer.from(pin), await SRP.genKey(32), true);
      srp.setB(m2.get(T.publicKey)!);
      const m4 = await this.tlvPost(conn, '/pair-setup', [[T.state, 3], [T.publicKey, srp.computeA()], [T.proof, srp.computeM1()]], 'pair-setup M3');
      srp.checkM2(m4.get(T.proof)!);
      const K = srp.computeK();
      const encKey = hkdf(K, 'Pair-Setup-Encrypt-Salt', 'Pair-Setup-Encrypt-Info');
      const x = hkdf(K, 'Pair-Setup-Controller-Sign-Salt', 'Pair-Setup-Controller-Sign-Info');
      const ltpk = rawPublic(this.ltk.publicKey);
      const id = Buffer.from(this.pairingId);
      const signature = crypto.sign(null, Buffer.concat([x, id, ltpk]), this.ltk.privateKey);
      const sub = encodeTlv([[T.identifier, id], [T.publicKey, ltpk], [T.signature, signature]]);
      const m6 = await this.tlvPost(conn, '/pair-setup', [[T.state, 5], [T.encryptedData, seal(encKey, nonceOf('PS-Msg05'), sub)]], 'pair-setup M5');
      const acc = decodeTlv(open(encKey, nonceOf('PS-Msg06'), m6.get(T.encryptedData)!));
      const accX = hkdf(K, 'Pair-Setup-Accessory-Sign-Salt', 'Pair-Setup-Accessory-Sign-Info');
      const accId = acc.get(T.identifier)!;
      const accLtpk = acc.get(T.publicKey)!;
      if (!crypto.verify(null, Buffer.concat([accX, accId, accLtpk]), okpPublic('Ed25519', accLtpk), acc.get(T.signature)!)) throw new Error('accessory signature invalid');
      this.accessoryId = accId.toString();
      this.accessoryLtpk = accLtpk;
    } finally {
      conn.close();
    }
  }

  /**
   * Pair Verify (M1-M4) on a new connection, then an encrypted HAP session. `trustAccessory` lets a
   * controller that never paired try anyway (it knows no accessory key, so skips that check).
   */
  async session(): Promise<HapSession> {
    const conn = await Connection.connect(this.host, this.port);
    try {
      const eph = crypto.generateKeyPairSync('x25519');
      const myPub = rawPublic(eph.publicKey);
      const m2 = await this.tlvPost(conn, '/pair-verify', [[T.state, 1], [T.publicKey, myPub]], 'pair-verify M1');
      const accPub = m2.get(T.publicKey)!;
      const shared = crypto.diffieHellman({ privateKey: eph.privateKey, publicKey: okpPublic('X25519', accPub) });
      const key = hkdf(shared, 'Pair-Verify-Encrypt-Salt', 'Pair-Verify-Encrypt-Info');
      const sub = decodeTlv(open(key, nonceOf('PV-Msg02'), m2.get(T.encryptedData)!));
      const accId = sub.get(T.identifier)!;
      if (this.accessoryLtpk) {
        const ok = crypto.verify(null, Buffer.concat([accPub, accId, myPub]), okpPublic('Ed25519', this.accessoryLtpk), sub.get(T.signature)!);
        if (!ok) throw new Error('accessory signature invalid in pair-verify');
      }
      const id = Buffer.from(this.pairingId);
      const signature = crypto.sign(null, Buffer.concat([myPub, id, accPub]), this.ltk.privateKey);
      const inner = encodeTlv([[T.identifier, id], [T.signature, signature]]);
      await this.tlvPost(conn, '/pair-verify', [[T.state, 3], [T.encryptedData, seal(key, nonceOf('PV-Msg03'), inner)]], 'pair-verify M3');
      conn.encrypt(hkdf(shared, 'Control-Salt', 'Control-Write-Encryption-Key'), hkdf(shared, 'Control-Salt', 'Control-Read-Encryption-Key'));
      return new HapSession(conn);
    } catch (err) {
      conn.close();
      throw err;
    }
  }
}

export interface HapCharacteristic {
  aid: number;
  iid: number;
  type: string;
  value?: unknown;
  format?: string;
  perms?: string[];
  description?: string;
}

export interface HapAccessory {
  aid: number;
  services: Array<{ iid: number; type: string; characteristics: HapCharacteristic[] }>;
}

/** HAP service and characteristic type UUIDs (short form) the tests look for. */
export const HAP_TYPES = {
  battery: '96',
  batteryLevel: '68',
  chargingState: '8F',
  statusLowBattery: '79',
  humiditySensor: '82',
  relativeHumidity: '10',
  lightSensor: '84',
  ambientLight: '6B',
  contactSensor: '80',
  contactState: '6A',
  statusFault: '77',
  name: '23',
} as const;

const shortType = (t: string) => t.replace(/^0*([0-9A-F]+)-0000-1000-8000-0026BB765291$/i, '$1').toUpperCase();

/** An encrypted session: GET /accessories and /characteristics like the Home app does. */
export class HapSession {
  constructor(private readonly conn: Connection) {}

  async accessories(): Promise<HapAccessory[]> {
    const res = await this.conn.exchange('GET', '/accessories');
    if (res.status !== 200) throw new Error(`GET /accessories: HTTP ${res.status}`);
    const body = JSON.parse(res.body.toString('utf8')) as { accessories: HapAccessory[] };
    for (const a of body.accessories) for (const s of a.services) {
      s.type = shortType(s.type);
      for (const c of s.characteristics) {
        c.type = shortType(c.type);
        c.aid = a.aid;
      }
    }
    return body.accessories;
  }

  /** Reads characteristics; each answer has `value` or a HAP `status` (e.g. -70402 no response). */
  async read(ids: Array<{ aid: number; iid: number }>): Promise<Array<{ aid: number; iid: number; value?: unknown; status?: number }>> {
    const res = await this.conn.exchange('GET', `/characteristics?id=${ids.map((i) => `${i.aid}.${i.iid}`).join(',')}`);
    if (res.status !== 200 && res.status !== 207) throw new Error(`GET /characteristics: HTTP ${res.status}`);
    return (JSON.parse(res.body.toString('utf8')) as { characteristics: Array<{ aid: number; iid: number; value?: unknown; status?: number }> }).characteristics;
  }

  close() {
    this.conn.close();
  }
}

/** Finds a characteristic by the accessory's name, its service type and the characteristic type. */
export function findCharacteristic(accessories: HapAccessory[], accessoryName: string, serviceType: string, charType: string): HapCharacteristic {
  for (const a of accessories) {
    const info = a.services.find((s) => s.type === '3E');
    const name = info?.characteristics.find((c) => c.type === HAP_TYPES.name)?.value;
    if (name !== accessoryName) continue;
    const c = a.services.find((s) => s.type === serviceType)?.characteristics.find((ch) => ch.type === charType);
    if (c) return c;
  }
  throw new Error(`no ${charType} on a ${serviceType} service of "${accessoryName}"`);
}
