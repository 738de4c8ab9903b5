/** getTokenData's stack reader (v2.md §7). */
import type { Address, Cell, TupleItem } from '@ton/core';

/** Stack readers with the C++ variant's error texts. */
export class StackReader {
  private i = 0;
  constructor(private readonly items: TupleItem[]) {}

  need(n: number): void {
    if (this.items.length < n) throw new Error(`Stack size ${this.items.length} < ${n}`);
  }

  int(): bigint {
    const it = this.items[this.i++];
    if (it?.type !== 'int') throw new Error(`stackEntryNumber expected at ${this.i - 1} position`);
    return it.value;
  }

  cell(): Cell {
    const it = this.items[this.i++];
    if (it?.type !== 'cell' && it?.type !== 'slice' && it?.type !== 'builder') {
      throw new Error(`stackEntryCell expected at ${this.i - 1} position`);
    }
    return it.cell;
  }

  /** An address slice; addr_none gives null. */
  address(): Address | null {
    return this.cell().beginParse().loadMaybeAddress();
  }
}
