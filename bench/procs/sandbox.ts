/** The baseline of scenario 7: the same signed messages executed directly on @ton/sandbox, in this one process. */
import { Address, Cell, toNano } from '@ton/core';
import { Blockchain } from '@ton/sandbox';
import { serveRpc } from '../lib/child.js';

const bc = await Blockchain.create();

serveRpc(
  {
    /** funds each address from a sandbox treasury, as the gateway's faucet does */
    fund: async (a: { addresses: string[]; amount: string }) => {
      const treasury = await bc.treasury('bench-funder', { balance: toNano('1000000') });
      for (const addr of a.addresses) await treasury.send({ to: Address.parse(addr), value: BigInt(a.amount), bounce: false });
    },
    /** runs the messages one after another, each with its whole cascade; answers elapsed ms and accepted count */
    run: async (a: { bocs: string[] }) => {
      const cells = a.bocs.map((b) => Cell.fromBase64(b));
      let accepted = 0;
      const t0 = performance.now();
      for (const c of cells) {
        try {
          await bc.sendMessage(c);
          accepted++;
        } catch {
          // a rejected external counts as not accepted, like the gateway's 500
        }
      }
      return { ms: performance.now() - t0, accepted };
    },
  },
  async () => undefined,
);
process.send!({ type: 'ready', pid: process.pid });
