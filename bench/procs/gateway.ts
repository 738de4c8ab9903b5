/**
 * A gateway in its own process, as `npm start` runs it with LOG_LEVEL=silent: config from argv/env (port 0, quiet), plus an RPC
 * channel for what HTTP cannot tell the bench (memory, the store's contents, pending count, sealing now).
 */
// as the CLI does, before graphql loads
import '../../src/production-mode.js';
import { Address } from '@ton/core';
import { loadConfig, type Config } from '../../src/config.js';
import { startGateway } from '../../src/gateway.js';
import type { LocalChain } from '../../src/sources/localnet/index.js';
import { serveRpc } from '../lib/child.js';

const config = loadConfig(process.argv.slice(2), { ...process.env, PORT: '0', QUIET: '1' }) as Config;
const gw = await startGateway(config);
// upstream mode may run without a local chain
const chain = (gw as { chain?: LocalChain }).chain;

function mustChain(): LocalChain {
  if (!chain) throw new Error('no local chain in this gateway');
  return chain;
}

serveRpc(
  {
    mem: () => {
      (globalThis as { gc?: () => void }).gc?.();
      return process.memoryUsage();
    },
    pending: () => ({ pending: mustChain().store.pending.length, sealed: mustChain().store.sealedTransactions().length }),
    seal: () => mustChain().sealBlock(),
    lastMcSeqno: () => mustChain().store.lastMc.seqno,
    /** credits each address once, one after another, without sealing */
    faucetMany: async (a: { addresses: string[]; amount: string }) => {
      const hashes: string[] = [];
      for (const addr of a.addresses) hashes.push((await mustChain().faucet(Address.parse(addr), BigInt(a.amount))).hash);
      return hashes;
    },
    storeStats: () => storeStats(mustChain()),
    cpu: () => process.cpuUsage(),
  },
  () => gw.close(),
);
process.send!({ type: 'ready', url: gw.url, pid: process.pid, hasChain: Boolean(chain) });

/** What the store holds, in serialized bytes, so memory growth can be set against it. */
function storeStats(c: LocalChain) {
  const s = c.store;
  const txs = s.sealedTransactions();
  let stateAfterB64 = 0;
  let txBoc = 0;
  for (const t of txs) {
    stateAfterB64 += t.stateAfter.length;
    txBoc += t.tx.raw.toBoc({ idx: false, crc32: false }).length;
  }
  let messages = 0;
  let msgBoc = 0;
  for (const m of s.allMessages()) {
    messages++;
    msgBoc += m.cell.toBoc({ idx: false, crc32: false }).length;
  }
  let states = 0;
  const accounts = s.accounts();
  for (const a of accounts) states += s.accountStateHistory(Address.parse(a)).length;
  return {
    transactions: txs.length,
    pending: s.pending.length,
    messages,
    accounts: accounts.length,
    stateRecords: states,
    mcBlocks: s.mcBlocks.length,
    shardBlocks: s.shardBlocks.length,
    stateAfterB64Bytes: stateAfterB64,
    txBocBytes: txBoc,
    msgBocBytes: msgBoc,
  };
}
