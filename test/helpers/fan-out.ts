/**
 * A contract whose one transaction fans out into as many messages as a transaction may send (issue 41, attacks
 * 7 and 8), compiled here with func-js, and the bodies that drive it:
 * - op 1 `n:uint8 ^payload`: sends `n` messages (0.01 TON each, not bounceable) to the accounts 0:1 … 0:n, each
 *   carrying `payload` as its body: with a 4,095-cell payload every message of the trace is 33 KB of BoC;
 * - op 2 `n:uint8 k:uint32`: sends `n` messages to itself with op 3 `k`, each of which spends its transaction
 *   counting to `k` (gas burnt, nothing sent).
 */
import { readFileSync } from 'node:fs';
import { compileFunc } from '@ton-community/func-js';
import { beginCell, Cell, contractAddress, type Address, type StateInit } from '@ton/core';

const SOURCE = `
#include "stdlib.fc";

() recv_internal(int balance, int value, cell in_msg, slice body) impure {
  if (body.slice_bits() < 8) {
    return ();
  }
  int op = body~load_uint(8);
  if (op == 1) {
    int n = body~load_uint(8);
    cell payload = body~load_ref();
    int i = 1;
    repeat (n) {
      ;; int_msg_info, ihr disabled, not bounceable, from addr_none to 0:i, 0.01 TON, the body in a reference
      send_raw_message(begin_cell().store_uint(0x10, 6).store_uint(4, 3).store_int(0, 8).store_uint(i, 256)
        .store_coins(10000000).store_uint(1, 107).store_ref(payload).end_cell(), 1);
      i += 1;
    }
  }
  if (op == 2) {
    int n = body~load_uint(8);
    int k = body~load_uint(32);
    repeat (n) {
      send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(my_address())
        .store_coins(500000000).store_uint(0, 107).store_uint(3, 8).store_uint(k, 32).end_cell(), 1);
    }
  }
  if (op == 3) {
    int k = body~load_uint(32);
    int x = 0;
    repeat (k) {
      x += 1;
    }
  }
}
`;

/** The contract's state init (its address follows from it); `salt` makes another instance. */
export async function fanOutInit(salt = 0): Promise<{ init: StateInit; address: Address }> {
  const stdlib = readFileSync(new URL('../../contracts/stdlib.fc', import.meta.url), 'utf8');
  const r = await compileFunc({ targets: ['fan-out.fc'], sources: { 'stdlib.fc': stdlib, 'fan-out.fc': SOURCE } });
  if (r.status === 'error') throw new Error(r.message);
  const init: StateInit = { code: Cell.fromBase64(r.codeBoc), data: beginCell().storeUint(salt, 32).endCell() };
  return { init, address: contractAddress(0, init) };
}

/** A complete binary tree of 2^depth - 1 distinct cells (depth 12: 4,095 cells, a 33 KB BoC). */
export function cellTree(depth: number, at = { n: 0 }): Cell {
  const b = beginCell().storeUint(at.n++, 32);
  if (depth > 1) b.storeRef(cellTree(depth - 1, at)).storeRef(cellTree(depth - 1, at));
  return b.endCell();
}

/** op 1: `n` messages each carrying `payload`. */
export const payloadFanOut = (n: number, payload: Cell): Cell => beginCell().storeUint(1, 8).storeUint(n, 8).storeRef(payload).endCell();

/** op 2: `n` messages to itself, each counting to `k`. */
export const gasFanOut = (n: number, k: number): Cell => beginCell().storeUint(2, 8).storeUint(n, 8).storeUint(k, 32).endCell();
