import { decodeRegister } from './decode.js';
import { MAX_READ_WORDS, type RegisterDef, type Table } from './registers.js';

/** Per-request options: a probe of a unit id that may have no device uses a short timeout of its own. */
export interface ReadOptions {
  timeoutMs?: number;
}

/** Reads `words` registers from `table` at `address` on `unit`; rejects with a ModbusException or a transport error. */
export type ReadFn = (table: Table, unit: number, address: number, words: number, opts?: ReadOptions) => Promise<number[]>;

/** A Modbus exception response (the device answered, with an exception code). */
export class ModbusException extends Error {
  constructor(readonly exceptionCode: number, message = `Modbus exception 0x${exceptionCode.toString(16).padStart(2, '0')}`) {
    super(message);
    this.name = 'ModbusException';
  }
}

export const ILLEGAL_DATA_ADDRESS = 0x02;
/** What a gateway answers to a read larger than it allows (or a quantity it does not accept). */
export const ILLEGAL_DATA_VALUE = 0x03;

/** A multi-register read the gateway refused as a whole: split it, it is no proof of "unsupported". */
const refusesBlock = (err: ModbusException) => err.exceptionCode === ILLEGAL_DATA_ADDRESS || err.exceptionCode === ILLEGAL_DATA_VALUE;

export interface Block {
  table: Table;
  address: number;
  words: number;
  regs: RegisterDef[];
}

export type Values = Record<string, number | string | null>;

/**
 * Groups registers into contiguous blocks: same table, at most `maxWords` long (the vendor's 124 by
 * default), gaps up to `maxGap` words read through. Fewer blocks mean fewer round trips per poll.
 */
export function planBlocks(regs: readonly RegisterDef[], maxWords = MAX_READ_WORDS, maxGap = 64): Block[] {
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

export function blockOf(regs: RegisterDef[]): Block {
  const address = Math.min(...regs.map((r) => r.address));
  const end = Math.max(...regs.map((r) => r.address + r.words));
  return { table: regs[0]!.table, address, words: end - address, regs };
}

/** What a BlockReader learnt, as plain data (persisted per gateway; see gateway-memory.ts). */
export interface LearnedPlan {
  /** Register keys of each block, in read order. */
  blocks: string[][];
  /** Keys that answered 0x02 on their own. */
  unsupported: string[];
  /** Spans (`table:address:words`) that answered 0x02 or 0x03: never tried again as a merge. */
  refused: string[];
}

const spanOf = (b: Block) => `${b.table}:${b.address}:${b.words}`;

/**
 * Reads a register set on one unit in as few requests as the gateway allows, and learns how.
 *
 * - Start: greedy blocks of at most 124 words (the vendor's limit; gaps read through). A block that
 *   answers 0x02 (a firmware lacking an address in it) or 0x03 (a gateway refusing a read that
 *   large) is split in two and each half retried; a single register answering 0x02 is unsupported
 *   and yields null from then on (a single register answering 0x03 is only failed, like 0x04).
 * - Neighbouring blocks are tried merged, once per span: the merged read replaces both when it
 *   answers; a span that answers 0x02 or 0x03 is remembered and never tried again (both are read apart).
 *   On a firmware that answers 0x02 for any reserved address this settles, within two polls, on one
 *   request per contiguous run of defined registers: the minimal plan.
 * - A block of the learnt plan that later answers 0x02 or 0x03 re-learns on its own (split again);
 *   the rest of the plan is untouched.
 *
 * Other exceptions leave that block's registers out of the result (not "unsupported"); transport
 * errors (timeout, closed socket) propagate.
 */
export class BlockReader {
  private plan: Block[];
  readonly unsupported = new Set<string>();
  private readonly refused = new Set<string>();
  private readonly byKey: Map<string, RegisterDef>;
  /** Bumped whenever the plan changes (so a caller knows when to persist it). */
  version = 0;

  constructor(
    private readonly regs: readonly RegisterDef[],
    private readonly maxWords = MAX_READ_WORDS,
    private readonly maxGap = 64,
  ) {
    this.byKey = new Map(regs.map((r) => [r.key, r]));
    this.plan = planBlocks(regs, maxWords, maxGap);
  }

  /** Forget what was learnt (a new connection may be to new firmware). */
  reset(): void {
    this.unsupported.clear();
    this.refused.clear();
    this.plan = planBlocks(this.regs, this.maxWords, this.maxGap);
    this.version++;
  }

  get blockCount(): number {
    return this.plan.length;
  }

  /** The plan as plain data. */
  learned(): LearnedPlan {
    return { blocks: this.plan.map((b) => b.regs.map((r) => r.key)), unsupported: [...this.unsupported], refused: [...this.refused] };
  }

  /**
   * Adopts a plan learnt earlier. Returns false (and keeps the current plan) when it does not fit
   * this register set: unknown keys, a key missing or listed twice, a block over the size limit.
   */
  adopt(plan: LearnedPlan): boolean {
    const seen = new Set<string>();
    const blocks: Block[] = [];
    for (const keys of plan.blocks) {
      const regs = keys.map((k) => this.byKey.get(k));
      if (!regs.length || regs.some((r) => !r)) return false;
      const block = blockOf(regs as RegisterDef[]);
      if (block.words > this.maxWords || block.regs.some((r) => r.table !== block.table)) return false;
      for (const k of keys) {
        if (seen.has(k)) return false;
        seen.add(k);
      }
      blocks.push(block);
    }
    for (const k of plan.unsupported) {
      if (!this.byKey.has(k) || seen.has(k)) return false;
      seen.add(k);
    }
    if (seen.size !== this.regs.length) return false;
    this.plan = blocks;
    this.unsupported.clear();
    for (const k of plan.unsupported) this.unsupported.add(k);
    this.refused.clear();
    for (const s of plan.refused.slice(0, 1000)) this.refused.add(String(s));
    this.version++;
    return true;
  }

  async read(read: ReadFn, unit: number, opts?: ReadOptions): Promise<{ values: Values; failed: string[] }> {
    const values: Values = {};
    const failed: string[] = [];
    for (const key of this.unsupported) values[key] = null;
    const next: Block[] = [];
    const before = this.plan;
    let i = 0;
    while (i < before.length) {
      let cur = before[i++]!;
      let read_ = false;
      // Grow the block by merging in its neighbours while the merged reads answer.
      while (i < before.length && this.mergeable(cur, before[i]!)) {
        const both = blockOf([...cur.regs, ...before[i]!.regs]);
        const outcome = await this.tryBlock(read, unit, both, values, opts);
        if (outcome !== 'ok') {
          if (outcome === 'refused') this.refused.add(spanOf(both));
          break;
        }
        cur = both;
        read_ = true;
        i++;
      }
      if (read_) next.push(cur);
      else await this.readBlock(read, unit, cur, values, failed, next, opts);
    }
    if (next.length !== before.length || next.some((b, k) => b !== before[k])) this.version++;
    this.plan = next;
    return { values, failed };
  }

  private mergeable(a: Block, b: Block): boolean {
    if (a.table !== b.table || b.address + b.words - a.address > this.maxWords) return false;
    return !this.refused.has(`${a.table}:${a.address}:${Math.max(a.address + a.words, b.address + b.words) - a.address}`);
  }

  /** Reads a block whole, filling in values when it answers. */
  private async tryBlock(read: ReadFn, unit: number, block: Block, values: Values, opts?: ReadOptions): Promise<'ok' | 'refused' | 'other'> {
    let words: number[];
    try {
      words = await read(block.table, unit, block.address, block.words, opts);
    } catch (err) {
      if (err instanceof ModbusException) return refusesBlock(err) ? 'refused' : 'other';
      throw err;
    }
    fill(block, words, values);
    return 'ok';
  }

  /** Reads a block of the plan, splitting it on 0x02 or 0x03. */
  private async readBlock(read: ReadFn, unit: number, block: Block, values: Values, failed: string[], next: Block[], opts?: ReadOptions): Promise<void> {
    let words: number[];
    try {
      words = await read(block.table, unit, block.address, block.words, opts);
    } catch (err) {
      const single = block.regs.length === 1;
      if (err instanceof ModbusException && (err.exceptionCode === ILLEGAL_DATA_ADDRESS || (!single && refusesBlock(err)))) {
        this.refused.add(spanOf(block));
        if (single) {
          const reg = block.regs[0]!;
          this.unsupported.add(reg.key);
          values[reg.key] = null;
          this.version++;
          return;
        }
        const mid = Math.ceil(block.regs.length / 2);
        for (const half of [block.regs.slice(0, mid), block.regs.slice(mid)]) await this.readBlock(read, unit, blockOf(half), values, failed, next, opts);
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
    fill(block, words, values);
  }
}

function fill(block: Block, words: number[], values: Values): void {
  for (const reg of block.regs) {
    const offset = reg.address - block.address;
    values[reg.key] = decodeRegister(reg, words.slice(offset, offset + reg.words));
  }
}
