import { Transform, type TransformCallback } from 'node:stream';

/** Largest MQTT packet this app accepts from a broker (it only subscribes to short status and command topics). */
export const MAX_INCOMING_PACKET_BYTES = 64 * 1024;

export class OversizedPacket extends Error {
  readonly code = 'mqtt_packet_too_large';
}

/** An oversized message the guard left out of the stream: its topic (when readable) and size. */
export interface DroppedMessage {
  topic: string | null;
  bytes: number;
}

/** MQTT control packet type 3: PUBLISH (a message on a topic). */
const PUBLISH = 3;
/** Bytes of a dropped PUBLISH kept to read its topic name (2-byte length, then the name). */
const TOPIC_PEEK_BYTES = 2 + 256;

/**
 * Sits between the broker's socket and the MQTT parser and follows the packet boundaries (fixed
 * header: one type byte, then the remaining length in 1 to 4 bytes of 7 bits). A message (PUBLISH)
 * announcing more than `max` bytes is left out of the stream as it arrives, never buffered, and
 * reported to `onDrop`: the connection carries on (the app subscribes at QoS 0, so nothing waits
 * for an acknowledgement of it). Any other packet over `max`, or a malformed length, fails the
 * stream before the parser buffers it, so a hostile or broken broker cannot make the app hold an
 * unbounded packet in memory.
 */
export function packetSizeGuard(max = MAX_INCOMING_PACKET_BYTES, onDrop: (m: DroppedMessage) => void = () => undefined): Transform {
  // 'type': expecting a type byte; 'length': reading the remaining-length bytes; 'body': passing
  // `left` bytes on; 'skip': leaving `left` bytes of a dropped message out.
  let phase: 'type' | 'length' | 'body' | 'skip' = 'type';
  let type = 0;
  let length = 0;
  let multiplier = 1;
  let header: number[] = [];
  let left = 0;
  let peek: Buffer[] = [];
  let peeked = 0;
  let skipped = 0;

  const topicOf = (): string | null => {
    const head = Buffer.concat(peek);
    if (head.length < 2) return null;
    const n = head.readUInt16BE(0);
    return head.length >= 2 + n ? head.subarray(2, 2 + n).toString('utf8') : null;
  };

  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      const out: Buffer[] = [];
      let i = 0;
      while (i < chunk.length) {
        if (phase === 'type') {
          type = chunk[i]! >> 4;
          header = [chunk[i++]!];
          phase = 'length';
          length = 0;
          multiplier = 1;
        } else if (phase === 'length') {
          const b = chunk[i++]!;
          header.push(b);
          length += (b & 0x7f) * multiplier;
          multiplier *= 128;
          if (b & 0x80) {
            if (header.length > 4) return done(new OversizedPacket('the broker sent a malformed packet length'));
            continue;
          }
          left = length;
          if (length > max) {
            if (type !== PUBLISH) return done(new OversizedPacket(`the broker sent a packet of ${length} bytes (at most ${max} accepted)`));
            phase = 'skip';
            peek = [];
            peeked = 0;
            skipped = length;
          } else {
            out.push(Buffer.from(header));
            phase = left === 0 ? 'type' : 'body';
          }
        } else {
          const take = Math.min(left, chunk.length - i);
          if (phase === 'body') out.push(chunk.subarray(i, i + take));
          else if (peeked < TOPIC_PEEK_BYTES) {
            const part = chunk.subarray(i, i + Math.min(take, TOPIC_PEEK_BYTES - peeked));
            peek.push(Buffer.from(part));
            peeked += part.length;
          }
          left -= take;
          i += take;
          if (left === 0) {
            if (phase === 'skip') onDrop({ topic: topicOf(), bytes: skipped });
            phase = 'type';
          }
        }
      }
      if (out.length === 0) done();
      else done(null, out.length === 1 ? out[0] : Buffer.concat(out));
    },
  });
}
