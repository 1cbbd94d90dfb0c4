import { describe, expect, it } from 'vitest';
import { decodeAscii, decodeInteger, decodeRegister, encodeRegister } from './decode.js';
import { INVERTER_IDENTITY, PLANT_REGISTERS, stringVoltageAddress } from './registers.js';

const reg = (key: string) => PLANT_REGISTERS.find((r) => r.key === key)!;

describe('register decoding (big-endian, high word first)', () => {
  it('decodes every integer type', () => {
    expect(decodeInteger('u16', [0xffff])).toBe(65535);
    expect(decodeInteger('s16', [0xffff])).toBe(-1);
    expect(decodeInteger('s16', [0x8000])).toBe(-32768);
    expect(decodeInteger('u32', [0x0001, 0x0000])).toBe(65536);
    expect(decodeInteger('u32', [0xffff, 0xffff])).toBe(4294967295);
    expect(decodeInteger('s32', [0xffff, 0xfc18])).toBe(-1000);
    expect(decodeInteger('s32', [0x7fff, 0xffff])).toBe(2147483647);
    expect(decodeInteger('u64', [0x0000, 0x0001, 0x0000, 0x0000])).toBe(4294967296);
    expect(decodeInteger('u64', [0x0000, 0x0000, 0x0012, 0xd687])).toBe(1234567);
  });

  it('applies the scale of each register', () => {
    expect(decodeRegister(reg('soc'), [553])).toBe(55.3);
    expect(decodeRegister(reg('gridPower'), [0xffff, 0xfb2e])).toBe(-1234);
    expect(decodeRegister(reg('energyRemaining'), [0, 912])).toBe(9.12);
    expect(decodeRegister(reg('lifetimePv'), [0, 0, 0x0006, 0x6cbf])).toBe(4210.55);
  });

  it('decodes ASCII with NUL and space padding trimmed', () => {
    const words = encodeRegister(INVERTER_IDENTITY[0]!, 'SigenStor EC 15.0 TP AU');
    expect(words).toHaveLength(15);
    expect(decodeAscii(words)).toBe('SigenStor EC 15.0 TP AU');
    expect(decodeAscii([0x4142, 0x2000, 0x0000])).toBe('AB');
  });

  it('round-trips every plant register through encode and decode', () => {
    for (const def of PLANT_REGISTERS) {
      const value = def.type === 's32' || def.type === 's16' ? -123 : 4567.89;
      const expected = Math.round(value * def.divisor) / def.divisor;
      expect(decodeRegister(def, encodeRegister(def, value)), def.key).toBeCloseTo(expected, 6);
    }
  });

  it('places strings 5 and up at their separate addresses', () => {
    expect(stringVoltageAddress(1)).toBe(31027);
    expect(stringVoltageAddress(4)).toBe(31033);
    expect(stringVoltageAddress(5)).toBe(31042);
    expect(stringVoltageAddress(16)).toBe(31064);
  });
});
