/**
 * Sandbox hands each queued message to the emulator re-serialised by @ton/core's storeMessage, which may lay
 * out a StateInit or body differently (inline vs reference) from the cell the sender produced, so the
 * receiver's in_msg would hash differently from the sender's out_msg. On a real chain a message travels as
 * the cell it was created as. This module remembers the original cell of every message the chain queues
 * (keyed by its parsed `info` object, which sandbox's queue entries share with the parsed message) and
 * makes SmartContract.receiveMessage pass that cell to the emulator.
 */
import { loadMessage, type Cell, type Message } from '@ton/core';
import { SmartContract } from '@ton/sandbox';

const originals = new WeakMap<object, Cell>();

interface ReceiveInternals {
  debug?: boolean;
  createCommonArgs(params: unknown): Record<string, unknown>;
  runCommon(run: () => Promise<unknown>, callStack?: unknown): Promise<unknown>;
  blockchain: { executor: { runTransaction(args: Record<string, unknown>): Promise<unknown> } };
}

let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const proto = SmartContract.prototype as unknown as ReceiveInternals & {
    receiveMessage(message: Message, params?: unknown, callStack?: unknown): Promise<unknown>;
  };
  const reserialising = proto.receiveMessage;
  if (typeof proto.createCommonArgs !== 'function' || typeof proto.runCommon !== 'function') return;
  proto.receiveMessage = async function (this: ReceiveInternals, message: Message, params?: unknown, callStack?: unknown) {
    const cell = originals.get(message.info);
    // the debugger path needs sandbox's own handling; without a remembered cell nothing changes
    if (!cell || this.debug) return reserialising.call(this as never, message, params, callStack);
    const args = { ...this.createCommonArgs(params), message: cell };
    return this.runCommon(() => this.blockchain.executor.runTransaction(args), callStack);
  } as typeof proto.receiveMessage;
}

/** The message parsed from `cell`, remembered so the emulator receives `cell` itself. */
export function exactMessage(cell: Cell): Message {
  install();
  const msg = loadMessage(cell.beginParse());
  originals.set(msg.info, cell);
  return msg;
}

/** Remembers the cell an out-message was created as, before sandbox delivers it. */
export function rememberMessageCell(msg: Message, cell: Cell): void {
  install();
  originals.set(msg.info, cell);
}

/** The cell a queued message was created as, when the chain remembered it. */
export function messageCellOf(msg: Pick<Message, 'info'>): Cell | undefined {
  return originals.get(msg.info);
}
