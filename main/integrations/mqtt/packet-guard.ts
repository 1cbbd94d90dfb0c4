import { Transform, type TransformCallback } from 'node:stream';

/** Largest MQTT packet this app accepts from a broker (it only subscribes to short status and command topics). */
export const MAX_INCOMING_PACKET_BYTES = 64 * 1024;

export class OversizedPacket extends Error {
  readonly code = 'mqtt_packet_too_large';
}

/**
 * Sits between the broker's socket and the MQTT parser and follows the packet boundaries (fixed
 * header: one type byte, then the remaining length in 1 to 4 bytes of 7 bits). A packet announcing
 * more than `max` bytes, or a malformed length, fails the stream before the parser buffers it, so a
 * hostile or broken broker cannot make the app hold an unbounded packet in memory.
 */
export function packetSizeGuard(max = MAX_INCOMING_PACKET_BYTES): Transform {
  // 'type': expecting a type byte; 'length': reading the remaining-length bytes; 'body': skipping `left` bytes.
  let phase: 'type' | 'length' | 'body' = 'type';
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let left = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let i = 0;
      while (i < chunk.length) {
        if (phase === 'type') {
          phase = 'length';
          length = 0;
          multiplier = 1;
          lengthBytes = 0;
          i++;
        } else if (phase === 'length') {
          const b = chunk[i++]!;
          length += (b & 0x7f) * multiplier;
          multiplier *= 128;
          lengthBytes++;
          if (b & 0x80) {
            if (lengthBytes >= 4) return done(new OversizedPacket('the broker sent a malformed packet length'));
            continue;
          }
          if (length > max) return done(new OversizedPacket(`the broker sent a packet of ${length} bytes (at most ${max} accepted)`));
          left = length;
          phase = left === 0 ? 'type' : 'body';
        } else {
          const take = Math.min(left, chunk.length - i);
          left -= take;
          i += take;
          if (left === 0) phase = 'type';
        }
      }
      done(null, chunk);
    },
  });
}
