import { decodeRegister } from './decode.js';
import type { RegisterDef, Table } from './registers.js';

/** Reads `words` registers from `table` at `address` on `unit`; rejects with a ModbusError or a transport error. */
export type ReadFn = (table: Table, unit: number, address: number, words: number) => Promise<number[]>;

/** A Modbus exception response (the device answered, with an exception code). */
export class ModbusException extends Error {
  constructor(readonly exceptionCode: number, message = `Modbus exception 0x${exceptionCode.toString(16).padStart(2, '0')}`) {
    super(message);
    this.name = 'ModbusException';
  }
}

export const ILLEGAL_DATA_ADDRESS = 0x02;

export interface Block {
  table: Table;
  address: number;
  words: number;
  regs: RegisterDef[];
}

export type Values = Record<string, number | string | null>;

/**
 * Groups registers into contiguous blocks: same table, at most `maxWords` long, gaps up to `maxGap`
 * words read through. Fewer blocks mean fewer round trips per poll.
 */
export function planBlocks(regs: readonly RegisterDef[], maxWords = 125, maxGap = 64): Block[] {
  const blocks: Block[] = [];
  const sorted = [...regs].sort((a, b) => (a.table === b.table ? a.address - b.address : a.table < b.table ? -1 : 1));
  for (const reg of sorted) {
    const last = blocks[blocks.length - 1];
    const end = reg.address + reg.words;
    if (last && last.table === reg.table && reg.address - (last.address + last.words) <= maxGap && end - last.address <= maxWords) {
      last.words = Math.max(last.words, end - last.address);
      last.regs.push(reg);
    } else {
      blocks.push({ table: reg.table, address: reg.address, words: reg.words, regs: [reg] });
    }
  }
  return blocks;
}

function blockOf(regs: RegisterDef[]): Block {
  const address = Math.min(...regs.map((r) => r.address));
  const end = Math.max(...regs.map((r) => r.address + r.words));
  return { table: regs[0]!.table, address, words: end - address, regs };
}

/**
 * Reads a register set on one unit as few blocks as possible. When a block answers exception 0x02
 * it is split in two and each half retried; a single register answering 0x02 is unsupported and
 * yields null from then on. The learnt plan is kept, so steady-state polls make no failing reads.
 * Other exceptions leave that block's registers out of the result (not "unsupported");
 * transport errors (timeout, closed socket) propagate.
 */
export class BlockReader {
  private plan: Block[];
  readonly unsupported = new Set<string>();

  constructor(
    private readonly regs: readonly RegisterDef[],
    private readonly maxWords = 125,
    private readonly maxGap = 64,
  ) {
    this.plan = planBlocks(regs, maxWords, maxGap);
  }

  /** Forget what was learnt (a new connection may be to new firmware). */
  reset(): void {
    this.unsupported.clear();
    this.plan = planBlocks(this.regs, this.maxWords, this.maxGap);
  }

  get blockCount(): number {
    return this.plan.length;
  }

  async read(read: ReadFn, unit: number): Promise<{ values: Values; failed: string[] }> {
    const values: Values = {};
    const failed: string[] = [];
    for (const key of this.unsupported) values[key] = null;
    const next: Block[] = [];
    for (const block of this.plan) await this.readBlock(read, unit, block, values, failed, next);
    this.plan = next;
    return { values, failed };
  }

  private async readBlock(read: ReadFn, unit: number, block: Block, values: Values, failed: string[], next: Block[]): Promise<void> {
    let words: number[];
    try {
      words = await read(block.table, unit, block.address, block.words);
    } catch (err) {
      if (err instanceof ModbusException && err.exceptionCode === ILLEGAL_DATA_ADDRESS) {
        if (block.regs.length === 1) {
          const reg = block.regs[0]!;
          this.unsupported.add(reg.key);
          values[reg.key] = null;
          return;
        }
        const mid = Math.ceil(block.regs.length / 2);
        for (const half of [block.regs.slice(0, mid), block.regs.slice(mid)]) {
          await this.readBlock(read, unit, blockOf(half), values, failed, next);
        }
        return;
      }
      if (err instanceof ModbusException) {
        for (const reg of block.regs) failed.push(reg.key);
        next.push(block);
        return;
      }
      throw err;
    }
    next.push(block);
    for (const reg of block.regs) {
      const offset = reg.address - block.address;
      values[reg.key] = decodeRegister(reg, words.slice(offset, offset + reg.words));
    }
  }
}
