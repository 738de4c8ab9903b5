/**
 * Instance A runs the local chain; instance B runs in upstream mode with V2_URL = V3_URL = A. Every v2 and
 * v3 route, called on both, must give the same status and the same JSON: B re-encodes what its surface
 * parsed, and passes A's answers (and A's errors) through unchanged.
 */
import { Address, beginCell, internal, loadMessage } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../../src/gateway.js';
import { signedTransfer } from '../../../src/sources/localnet/chain/genesis.js';
import { V2_ENDPOINTS } from '../../../src/api/v2.js';
import { V3_DESCRIPTORS } from '../../../src/api/v3/index.js';
import { servedRoutes } from '../../../src/api/v3/branch.js';
import { startTestGateway } from '../../helpers/gateway.js';
import { http, startUpstreamGateway } from './helpers.js';

interface Call {
  method: 'GET' | 'POST';
  /** path and query, e.g. /api/v2/getAddressBalance?address=... */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const enc = encodeURIComponent;
const SHARD_ALL = '-9223372036854775808';

describe('upstream mode against the local chain', () => {
  let A: Gateway;
  let B: Gateway;
  const calls: Call[] = [];

  beforeAll(async () => {
    A = await startTestGateway();
    B = await startUpstreamGateway(A.url, { UPSTREAM_RPS: '0' });

    const chain = A.chain!;
    const [aliceW, bobW, carolW] = chain.keyedWallets();
    const alice = aliceW!.contract.address;
    const bob = bobW!.contract.address;
    const carol = carolW!.contract.address;
    const get = async (path: string) => (await http(`${A.url}${path}`)).body as any;

    // ---- identifiers read from A ----
    const mc = (await get('/api/v2/getMasterchainInfo')).result;
    const last = mc.last.seqno as number;
    const shards = (await get(`/api/v2/getShards?seqno=${last}`)).result.shards;
    const shard0 = shards[0];
    const bobTxs = (await get(`/api/v2/getTransactions?address=${bob.toString()}&limit=10`)).result as any[];
    const received = bobTxs.find((t) => t.in_msg && t.in_msg.source !== '')!;
    const v3txs = (await get('/api/v3/transactions?limit=100&sort=asc')).transactions as any[];
    const sender = v3txs.find((t) => t.out_msgs.some((m: any) => m.destination !== null))!;
    const outMsg = sender.out_msgs.find((m: any) => m.destination !== null);
    // a shard block with transactions, for getBlockTransactions paging
    let txBlock: any;
    for (let s = last; s >= 1 && !txBlock; s--) {
      const sh = (await get(`/api/v2/getShards?seqno=${s}`)).result.shards[0];
      const bt = (await get(`/api/v2/getBlockTransactions?workchain=0&shard=${SHARD_ALL}&seqno=${sh.seqno}&count=40`)).result;
      if (bt.transactions.length >= 2) txBlock = { id: sh, txs: bt.transactions };
    }
    expect(txBlock).toBeDefined();
    const seqno = Number(BigInt((await get(`/api/v3/walletInformation?address=${alice.toRawString()}`)).seqno));
    const ext = signedTransfer(aliceW!, seqno, [internal({ to: bob, value: 1_000_000n, bounce: false, body: 'parity' })], Math.floor(Date.now() / 1000) + 3600);
    const extBody = loadMessage(ext.beginParse()).body.toBoc().toString('base64');
    // a well-formed BoC that is no external message: both sides must refuse it alike, nothing is sent
    const junkBoc = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString('base64');
    const libHash = Buffer.alloc(32, 7).toString('base64');

    const v2 = (name: string, query = '') => calls.push({ method: 'GET', path: `/api/v2/${name}${query ? `?${query}` : ''}` });
    const v2post = (name: string, body: unknown) => calls.push({ method: 'POST', path: `/api/v2/${name}`, body });
    const v3 = (route: string, query = '', headers?: Record<string, string>) =>
      calls.push({ method: 'GET', path: `/api/v3${route}${query ? `?${query}` : ''}`, headers });
    const v3post = (route: string, body: unknown) => calls.push({ method: 'POST', path: `/api/v3${route}`, body });

    // ---- v2: accounts ----
    for (const name of ['getAddressInformation', 'getExtendedAddressInformation', 'getWalletInformation', 'getAddressBalance', 'getAddressState', 'getTokenData']) {
      v2(name, `address=${enc(alice.toString())}`);
      v2(name, `address=${bob.toRawString()}&seqno=${last}`);
      v2post(name, { address: carol.toString({ urlSafe: false }) });
    }
    v2('getAddressInformation', 'address=not-an-address');
    // the chain holds no root at config param 4's address, and the genesis DNS item answers for itself
    v2('dnsResolve', 'domain=foundation.ton');
    v2('dnsResolve', 'domain=a..b');
    v2('dnsResolve', `domain=x&resolver_address=${alice.toRawString()}`);
    v2('getAddressBalance', `address=${new Address(0, Buffer.alloc(32, 9)).toRawString()}`);
    // ---- v2: blocks ----
    v2('getMasterchainInfo');
    v2('getMasterchainBlockSignatures', `seqno=${last}`);
    v2('getShardBlockProof', `workchain=0&shard=${SHARD_ALL}&seqno=${shard0.seqno}`);
    v2('getShardBlockProof', `workchain=0&shard=${SHARD_ALL}&seqno=${shard0.seqno}&from_seqno=${last}`);
    v2('getConsensusBlock');
    v2('lookupBlock', `workchain=-1&shard=${SHARD_ALL}&seqno=${last}`);
    v2('lookupBlock', `workchain=0&shard=${SHARD_ALL}&lt=${txBlock.txs[0].lt}`);
    v2('lookupBlock', `workchain=-1&shard=${SHARD_ALL}&unixtime=${Math.floor(Date.now() / 1000)}`);
    v2('lookupBlock', `workchain=-1&shard=${SHARD_ALL}&seqno=${last + 1000}`);
    v2('getShards', `seqno=${last}`);
    v2('shards', `seqno=${last}`);
    const id = txBlock.id;
    v2('getBlockHeader', `workchain=0&shard=${SHARD_ALL}&seqno=${id.seqno}`);
    v2('getBlockHeader', `workchain=0&shard=${SHARD_ALL}&seqno=${id.seqno}&root_hash=${enc(id.root_hash)}&file_hash=${enc(id.file_hash)}`);
    v2('getOutMsgQueueSize');
    v2('getOutMsgQueueSizes');
    // ---- v2: transactions ----
    const t0 = txBlock.txs[0];
    for (const name of ['getBlockTransactions', 'getBlockTransactionsExt']) {
      v2(name, `workchain=0&shard=${SHARD_ALL}&seqno=${id.seqno}&count=1`);
      v2(name, `workchain=0&shard=${SHARD_ALL}&seqno=${id.seqno}&root_hash=${enc(id.root_hash)}&after_lt=${t0.lt}&after_hash=${enc(t0.account)}&count=5`);
      v2post(name, { workchain: 0, shard: SHARD_ALL, seqno: id.seqno, count: 2 });
    }
    for (const name of ['getTransactions', 'getTransactionsStd']) {
      v2(name, `address=${enc(bob.toString())}&limit=3`);
      v2(name, `address=${enc(bob.toString())}&limit=2&lt=${received.transaction_id.lt}&hash=${enc(received.transaction_id.hash)}&archival=true`);
      v2(name, `address=${enc(bob.toString())}&to_lt=${received.transaction_id.lt}`);
    }
    const loc = `source=${enc(received.in_msg.source)}&destination=${enc(received.in_msg.destination)}&created_lt=${received.in_msg.created_lt}`;
    v2('tryLocateTx', loc);
    v2('tryLocateResultTx', loc);
    v2('tryLocateSourceTx', loc);
    v2('tryLocateTx', `source=${enc(received.in_msg.source)}&destination=${enc(received.in_msg.destination)}&created_lt=1`);
    // ---- v2: send, fees, get-methods ----
    v2post('sendBoc', { boc: junkBoc });
    v2post('sendBocReturnHash', { boc: junkBoc });
    v2post('sendBocReturnHashNoError', { boc: junkBoc });
    v2post('estimateFee', { address: alice.toString(), body: extBody, ignore_chksig: true });
    v2post('runGetMethod', { address: alice.toString(), method: 'seqno', stack: [] });
    v2post('runGetMethod', { address: alice.toString(), method: 'get_public_key', stack: [], seqno: last });
    v2post('runGetMethod', {
      address: alice.toString(),
      method: 'no_such_method',
      stack: [['num', '0x10'], ['num', -5], ['tvm.Cell', junkBoc], ['tvm.Slice', junkBoc], ['list', { '@type': 'tvm.list', elements: [] }]],
    });
    v2post('runGetMethodStd', {
      address: alice.toString(),
      method: 'seqno',
      stack: [
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '-12345678901234567890' } },
        { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [] } },
      ],
    });
    v2post('runGetMethodStd', { address: alice.toString(), method: 85143, stack: [] });
    // ---- v2: utils and config ----
    v2('detectAddress', `address=${enc(alice.toString())}`);
    v2('detectAddress', `address=${alice.toRawString()}`);
    v2('detectHash', `hash=${t0.hash.replace(/\+/g, '%2B').replace(/\//g, '%2F')}`);
    v2('packAddress', `address=${alice.toRawString()}`);
    v2('unpackAddress', `address=${enc(alice.toString())}`);
    v2('getConfigParam', 'config_id=0');
    v2('getConfigParam', `config_id=34&seqno=${last}`);
    v2('getConfigAll');
    v2('getLibraries', `libraries=${enc(libHash)}`);
    // ---- v2: JSON-RPC ----
    v2post('jsonRPC', { jsonrpc: '2.0', id: 1, method: 'getAddressInformation', params: { address: alice.toString() } });
    v2post('jsonRPC', { jsonrpc: '2.0', id: 'x', method: 'runGetMethod', params: { address: alice.toString(), method: 'seqno', stack: [] } });
    v2post('jsonRPC', { jsonrpc: '2.0', id: 2, method: 'getTransactions', params: { address: bob.toString(), limit: 2 } });
    v2post('jsonRPC', { jsonrpc: '2.0', id: 3, method: 'tryLocateTx', params: { source: received.in_msg.source, destination: received.in_msg.destination, created_lt: '1' } });
    v2post('jsonRPC', { jsonrpc: '2.0', id: 4, method: 'sendBoc', params: { boc: junkBoc } });

    // ---- v3 ----
    const v3mc = await get('/api/v3/masterchainInfo');
    v3('/masterchainInfo');
    v3('/blocks', 'limit=5');
    v3('/blocks', `workchain=-1&seqno=${v3mc.last.seqno}&sort=desc`);
    v3('/blocks', 'workchain=0&shard=8000000000000000&sort=asc&limit=3&start_utime=0&end_lt=18446744073709551615');
    v3('/blocks', `root_hash=${enc(v3mc.last.root_hash)}`);
    v3('/masterchainBlockShardState', `seqno=${v3mc.last.seqno}`);
    v3('/masterchainBlockShards', `seqno=${v3mc.last.seqno}`);
    v3('/masterchainBlockShards', `seqno=${sender.mc_block_seqno}&limit=2&offset=0`);
    v3('/masterchainBlockShards', `seqno=${v3mc.last.seqno + 100}`);
    v3('/transactions', 'limit=100&sort=asc');
    v3('/transactions', `account=${enc(alice.toString())}&account=${bob.toRawString()}&limit=5`);
    v3('/transactions', `hash=${enc(sender.hash)}`);
    v3('/transactions', `hash=${enc(sender.hash)}`, { 'X-No-Address-Book': '1' });
    v3('/transactions', `lt=${sender.lt}&workchain=0&shard=8000000000000000`);
    v3('/transactions', 'workchain=0&start_utime=1&end_utime=4000000000&start_lt=1&end_lt=99999999999999&sort=desc&offset=1&limit=3');
    v3('/transactions', 'limit=5000');
    v3('/transactionsByMasterchainBlock', `seqno=${sender.mc_block_seqno}&sort=asc`);
    v3('/transactionsByMessage', `msg_hash=${enc(outMsg.hash)}`);
    v3('/transactionsByMessage', `msg_hash=${enc(outMsg.hash)}&direction=out&limit=3`);
    v3('/transactionsByMessage', 'opcode=0x00000000');
    v3('/transactionsByMessage', `body_hash=${enc(outMsg.message_content.hash)}&opcode=0`);
    v3('/adjacentTransactions', `hash=${enc(sender.hash)}&direction=out`);
    v3('/adjacentTransactions', `hash=${enc(sender.hash)}`);
    v3('/messages', `msg_hash=${enc(outMsg.hash)}`);
    v3('/messages', `hash=${enc(outMsg.hash)}`, { 'X-No-Metadata': 'true' });
    v3('/messages', `source=${alice.toRawString()}&limit=3&sort=asc`);
    v3('/messages', 'source=null&limit=3');
    v3('/messages', `destination=${enc(bob.toString())}&direction=in&exclude_externals=true&opcode=0`);
    v3('/messages', 'only_externals=1&start_lt=1&end_lt=99999999999999&start_utime=1&end_utime=4000000000');
    v3('/accountStates', `address=${enc(alice.toString())}&address=${bob.toRawString()}`);
    v3('/accountStates', `address=${enc(alice.toString())}&include_boc=false`, { 'X-No-Address-Book': 'true', 'X-No-Metadata': 'true' });
    v3('/walletStates', `address=${enc(alice.toString())}&address=${carol.toRawString()}`);
    v3('/addressBook', `address=${enc(alice.toString())}&address=${bob.toRawString()}&address=garbage`);
    v3('/topAccountsByBalance', 'limit=3');
    v3('/topAccountsByBalance', 'limit=2&offset=1');
    v3('/addressInformation', `address=${enc(alice.toString())}`);
    v3('/addressInformation', `address=${enc(alice.toString())}&use_v2=true`);
    v3('/account', `address=${bob.toRawString()}`);
    v3('/walletInformation', `address=${enc(alice.toString())}`);
    v3('/walletInformation', `address=${enc(alice.toString())}&use_v2=1`);
    v3('/wallet', `address=${bob.toRawString()}`);
    v3('/walletInformation', `address=${new Address(0, Buffer.alloc(32, 9)).toRawString()}`);
    v3post('/message', { boc: junkBoc });
    v3post('/runGetMethod', { address: alice.toString(), method: 'seqno', stack: [] });
    v3post('/runGetMethod', { address: alice.toString(), method: 'seqno', stack: [{ type: 'num', value: '-0x10' }, { type: 'cell', value: junkBoc }, { type: 'slice', value: junkBoc }] });
    v3post('/estimateFee', { address: alice.toString(), body: extBody, ignore_chksig: true });
    // ---- v3 part 2: tokens, traces, actions, pending, decode, dns/multisig/vesting ----
    const tokens = (await get('/localnet/tokens')) as any;
    const master = tokens.jetton.master as string;
    const collection = tokens.nft_collection.address as string;
    const item0 = tokens.nft_collection.items[0].address as string;
    const trace = (await get(`/api/v3/traces?account=${alice.toRawString()}&limit=1`)).traces[0];
    v3('/jetton/masters');
    v3('/jetton/masters', `address=${master}&admin_address=${alice.toRawString()}`);
    v3('/jetton/wallets', `owner_address=${enc(alice.toString())}&owner_address=${bob.toRawString()}`);
    v3('/jetton/wallets', `jetton_address=${master}&sort=desc&exclude_zero_balance=true&limit=2`);
    v3('/jetton/wallets', `jetton_address=${master}&jetton_address=${collection}`);
    v3('/jetton/transfers', `owner_address=${alice.toRawString()}&direction=out`);
    v3('/jetton/transfers', `jetton_master=${master}&start_lt=1&end_lt=99999999999999&sort=asc`);
    v3('/jetton/burns', `owner_address=${bob.toRawString()}`);
    v3('/jetton/burns', `jetton_master=${master}&start_utime=1`);
    v3('/nft/collections');
    v3('/nft/collections', `collection_address=${collection}`);
    v3('/nft/items', `collection_address=${collection}&index=0&index=2`);
    v3('/nft/items', `owner_address=${carol.toRawString()}&include_on_sale=true`);
    v3('/nft/items', 'index=1');
    v3('/nft/transfers', `item_address=${item0}`);
    v3('/nft/transfers', `owner_address=${carol.toRawString()}&direction=in&sort=asc`);
    v3('/metadata', `address=${master}&address=${item0}&address=${alice.toRawString()}`);
    v3('/metadata');
    v3('/traces', `account=${alice.toRawString()}&limit=3&include_actions=true`);
    v3('/traces', `trace_id=${enc(trace.trace_id)}`);
    v3('/traces', `account=${alice.toRawString()}&trace_id=${enc(trace.trace_id)}`);
    v3('/events', `trace_id=${enc(trace.trace_id)}`);
    v3('/actions', `account=${alice.toRawString()}&action_type=jetton_transfer&include_accounts=true`);
    v3('/actions', `trace_id=${enc(trace.trace_id)}&supported_action_types=v1&include_transactions=true`);
    v3('/actions', `action_type=bad%20type`);
    v3('/transactions', 'opcode=0x0f8a7ea5&direction=out');
    v3('/transactions', `source=${alice.toRawString()}&limit=5`);
    v3('/transactions', 'direction=in');
    v3('/messages', `hash=${enc(trace.external_hash)}`);
    v3('/messages', `hash=${enc(trace.external_hash)}&msg_hash=${enc(trace.external_hash)}`);
    v3('/balanceChanges', `trace_id=${enc(trace.trace_id)}`);
    v3('/balanceChanges', `trace_id=${enc(trace.trace_id)}&action_id=${enc(trace.trace_id)}`);
    v3('/balanceChanges');
    v3('/pendingTransactions', `account=${alice.toRawString()}`);
    v3('/pendingTransactions');
    v3('/pendingTraces', `account=${alice.toRawString()}`);
    v3('/pendingTraces');
    v3('/pendingActions', `ext_msg_hash=${enc(trace.external_hash)}`);
    v3('/decode', 'opcodes=0x0f8a7ea5&opcodes=12345&bodies=te6cckEBAQEABgAACAAAAADt2NlT');
    v3post('/decode', { opcodes: ['0x5fcc3d14', 'zz'], bodies: [] });
    v3('/dns/records', `wallet=${alice.toRawString()}`);
    v3('/dns/records');
    v3('/multisig/wallets', `wallet_address=${alice.toRawString()}`);
    v3('/multisig/orders', `multisig_address=${alice.toRawString()}`);
    v3('/multisig/orders');
    v3('/vesting', `wallet_address=${alice.toRawString()}`);
    v3('/vesting', `wallet_address=${alice.toRawString()}&contract_address=${bob.toRawString()}`);
    // ---- v3: the routes new in 1.2.6 ----
    v3('/dns/activeAuctions', `bidder=${alice.toRawString()}`);
    v3('/dns/activeAuctions', 'state=won');
    v3('/nft/sales', `address=${alice.toRawString()}`);
    v3('/staking/nominatorPools/pool', `pool=${alice.toRawString()}`);
    v3('/staking/nominatorPools/nominator', `nominator=${alice.toRawString()}`);
    v3('/staking/nominatorPools/nominatorEvents', `pool=${alice.toRawString()}&limit=2`);
    v3('/staking/nominatorPools/nominatorRewards', `pool=${alice.toRawString()}`);
    v3('/staking/nominatorPools/validatorEvents', `validator=${bob.toRawString()}`);
    v3('/staking/nominatorPools/validatorRewards', `validator=${bob.toRawString()}&pool=${alice.toRawString()}`);
    v3('/validators/events', 'sort=asc');
    v3('/validators/elections', 'return_participants=true&limit=101');
    v3('/validators/cycles', 'limit=1');
    v3('/validators/complaints', 'validator_pubkey=00');
  }, 60_000);

  afterAll(async () => {
    await B?.close();
    await A?.close();
  });

  it('covers every v2 endpoint and every v3 route', () => {
    const paths = new Set(calls.map((c) => c.path.split('?')[0]!));
    for (const e of V2_ENDPOINTS) expect(paths, e.name).toContain(`/api/v2/${e.name}`);
    // branch-only routes (V3_BRANCH_FEATURES) are compared on both sources in their own files
    for (const r of servedRoutes(V3_DESCRIPTORS, [])) expect(paths, r.path).toContain(`/api/v3${r.path}`);
  });

  it('answers every call exactly as the local chain does', async () => {
    const mismatches: string[] = [];
    for (const c of calls) {
      const init = { method: c.method, body: c.body, headers: c.headers };
      const a = await http(`${A.url}${c.path}`, init);
      const b = await http(`${B.url}${c.path}`, init);
      // getConsensusBlock's timestamp is the answering server's clock (ton-http-api's C++ server: now); the two
      // calls may fall either side of a second
      const ts = (r: typeof a) => (r.body as { result?: { timestamp?: unknown } } | null)?.result?.timestamp;
      if (c.path.endsWith('/getConsensusBlock') && typeof ts(a) === 'number' && typeof ts(b) === 'number') {
        expect(Math.abs((ts(a) as number) - (ts(b) as number))).toBeLessThanOrEqual(2);
        (b.body as { result: { timestamp: unknown } }).result.timestamp = ts(a);
      }
      try {
        expect(b).toEqual(a);
      } catch {
        mismatches.push(`${c.method} ${c.path} ${c.body ? JSON.stringify(c.body).slice(0, 80) : ''}\n  A ${a.status} ${JSON.stringify(a.body).slice(0, 300)}\n  B ${b.status} ${JSON.stringify(b.body).slice(0, 300)}`);
      }
    }
    expect(mismatches.join('\n')).toBe('');
    // the calls reached A through B: not answered by a stub
    expect(B.upstream!.client.stats.sent).toBeGreaterThan(50);
  });

  const EXPLORE = `query Explore {
      masterchainInfo {
        last {
          seqno
          shards {
            workchain
            seqno
            transactions(first: 10) {
              nodes {
                hash
                lt
                inMessage { value comment source { address balance } }
                outMessages { value destination { address balance } }
              }
            }
          }
        }
      }
    }`;

  it('answers a GraphQL query through B exactly as through A', async () => {
    const body = { query: EXPLORE };
    const a = await http(`${A.url}/graphql`, { body });
    const b = await http(`${B.url}/graphql`, { body });
    expect(a.status).toBe(200);
    expect((a.body as { errors?: unknown }).errors).toBeUndefined();
    expect(b).toEqual(a);
  });

  it('completes a nested GraphQL query, slowly, behind a keyless 1 rps upstream', async () => {
    const slow = await startUpstreamGateway(A.url, {});
    try {
      const started = performance.now();
      const b = await http(`${slow.url}/graphql`, { body: { query: EXPLORE } });
      const a = await http(`${A.url}/graphql`, { body: { query: EXPLORE } });
      expect(b).toEqual(a);
      const sent = slow.upstream!.client.stats.sent;
      // n paced calls take at least n-1 seconds
      expect(performance.now() - started).toBeGreaterThanOrEqual((sent - 1) * 1000);
      console.info(`GraphQL Explore at UPSTREAM_RPS=1: ${sent} upstream calls, ${Math.round(performance.now() - started)} ms`);
    } finally {
      await slow.close();
    }
  }, 30_000);

  it('serves /health and /ready, and has no /localnet routes', async () => {
    expect((await http(`${B.url}/health`)).status).toBe(200);
    expect(await http(`${B.url}/ready`)).toEqual({ status: 200, body: { status: 'ready' } });
    expect((await http(`${B.url}/localnet/wallets`)).status).toBe(404);
    expect((await http(`${A.url}/ready`)).status).toBe(200);
  });

  it('forwards a real send, and the transaction shows up through B', async () => {
    const [aliceW, bobW] = A.chain!.keyedWallets();
    const alice = aliceW!.contract.address;
    const run = await http(`${B.url}/api/v2/runGetMethod`, { body: { address: alice.toString(), method: 'seqno', stack: [] } });
    const seqno = Number(BigInt(((run.body as any).result.stack[0] as [string, string])[1]));
    const ext = signedTransfer(aliceW!, seqno, [internal({ to: bobW!.contract.address, value: 1_000_000n, bounce: false, body: 'through B' })], Math.floor(Date.now() / 1000) + 3600);
    const sent = await http(`${B.url}/api/v2/sendBocReturnHash`, { body: { boc: ext.toBoc().toString('base64') } });
    expect(sent.status).toBe(200);
    const hash = (sent.body as any).result.hash as string;
    const found = await http(`${B.url}/api/v3/transactionsByMessage?msg_hash=${enc(hash)}`);
    expect(found.status).toBe(200);
    expect((found.body as any).transactions).toHaveLength(1);
  });
});
