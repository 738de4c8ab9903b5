/**
 * A masterchain run by the network's own contracts: the elector at config param 1's address, the config contract
 * at param 0's, and standard nominator pools, all compiled at run time from ../shared/fixtures/contracts (see its
 * ORIGINS.md) with func-js, on the local chain's engine (its executor, store and block producer).
 *
 * The local chain runs no tick-tock and keeps its config, so this harness does what a validator does around
 * each masterchain block: the elector's and the config contract's tick-tock transactions run first (recorded in
 * the chain's store like any transaction), then the block's messages, and once the block is sealed the config
 * the next block runs with is the config contract's data (as on the network, where the configuration is that
 * contract's state). The readers get that config through their source's `configParam`.
 */
import { readFileSync } from 'node:fs';
import { Address, beginCell, Cell, Dictionary, internal, loadShardAccount, storeShardAccount, type MessageRelaxed, type ShardAccount, type TupleItem } from '@ton/core';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { compileFunc } from '@ton-community/func-js';
import { type BlockchainTransaction } from '@ton/sandbox';
import { WalletContractV4 } from '@ton/ton';
import { createHash } from 'node:crypto';
import type { V3Api } from '../../src/api/v3/index.js';
import { messageCells } from '../../src/model/message.js';
import { Chain } from '../../src/sources/localnet/chain/chain.js';
import { signedTransfer } from '../../src/sources/localnet/chain/genesis.js';
import { commentPayload, nominatorPoolInit, poolValidatorBody, type NominatorPoolConfig } from '../../src/sources/localnet/chain/contracts/index.js';
import { adnlAddress, newStakeBody, recoverStakeBody } from '../../src/sources/localnet/chain/genesis-elector.js';
import type { TxRecord } from '../../src/sources/localnet/chain/store.js';
import { localV2Api } from '../../src/sources/localnet/v2/index.js';
import { localV3Api } from '../../src/sources/localnet/v3/index.js';
import type { V3ChainSource } from '../../src/sources/localnet/v3/v3-context.js';
import { sharedPath } from './shared.js';

export const TON = 1_000_000_000n;

export interface NetworkCode {
  elector: Cell;
  config: Cell;
  pool: Cell;
}

async function compile(dir: string, files: string[]): Promise<Cell> {
  const sources = Object.fromEntries(files.map((f) => [f, readFileSync(sharedPath(`fixtures/contracts/${dir}/${f}`), 'utf8')]));
  const r = await compileFunc({ targets: files, sources });
  if (r.status !== 'ok') throw new Error(`${dir}/${files.at(-1)}: ${r.message}`);
  return Cell.fromBase64(r.codeBoc);
}

/** The three contracts as ORIGINS.md builds them (stdlib first, then the contract). */
export async function compileNetworkCode(): Promise<NetworkCode> {
  const [elector, config, pool] = await Promise.all([
    compile('elector', ['stdlib.fc', 'elector-code.fc']),
    compile('elector', ['stdlib.fc', 'config-code.fc']),
    compile('nominator-pool', ['stdlib.fc', 'pool.fc']),
  ]);
  return { elector, config, pool };
}

/** Elector and pool opcodes (elector-code.fc, pool.fc). */
export const OP = {
  newStake: 0x4e73744b,
  recoverStake: 0x47657424,
  newComplaint: 0x52674370,
  voteComplaint: 0x56744370,
  voteSignature: 0x56744350,
  poolDepositValidator: 4,
  poolProcessWithdrawals: 2,
  poolUpdateValidatorSet: 6,
} as const;

export interface ElectionTimes {
  validatorsElectedFor: number;
  electionsStartBefore: number;
  electionsEndBefore: number;
  stakeHeldFor: number;
}

export interface StakeLimits {
  minStake: bigint;
  maxStake: bigint;
  minTotalStake: bigint;
  /** 65536 = 1.0 */
  maxStakeFactor: number;
}

export interface NetworkOptions {
  seed: string;
  /** utime of the first block */
  start: number;
  times: ElectionTimes;
  limits: StakeLimits;
  /** config param 16 */
  validators: { max: number; maxMain: number; min: number };
  /** nobody's grams the elector holds at the start (1/8 of them is the first cycle's bonus) */
  electorGrams: bigint;
  /** config param 34 at the start: the set whose end opens the first election */
  genesisSet: Cell;
}

/** A keyed v4 wallet on the chain, with the seqno of its next transfer. */
export interface Wallet {
  name: string;
  keyPair: KeyPair;
  contract: WalletContractV4;
  address: Address;
  seqno: number;
}

export const keysOf = (seed: string, name: string): KeyPair => keyPairFromSeed(createHash('sha256').update(`elector-network/${seed}/${name}`).digest());

const uint256 = (b: Buffer): bigint => BigInt('0x' + b.toString('hex'));

/** validators_ext#12 with validator_addr#73 entries (block.tlb), weights as given. */
export function validatorSet(since: number, until: number, members: { key: Buffer; weight: bigint }[]): Cell {
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Cell());
  members.forEach((m, i) =>
    list.set(i, beginCell().storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(m.key).storeUint(m.weight, 64).storeBuffer(adnlAddress(m.key)).endCell()),
  );
  const total = members.reduce((s, m) => s + m.weight, 0n);
  const b = beginCell().storeUint(0x12, 8).storeUint(since, 32).storeUint(until, 32).storeUint(members.length, 16).storeUint(members.length, 16).storeUint(total, 64);
  return b.storeDict(list, Dictionary.Keys.Uint(16), {
    serialize: (c: Cell, to) => to.storeSlice(c.beginParse()),
    parse: () => {
      throw new Error('write only');
    },
  }).endCell();
}

type ConfigDict = Dictionary<number, Cell>;

const loadConfig = (root: Cell): ConfigDict => Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);

/** A standard pool's code and data at deployment: idle, nothing staked, its config in a ref (the project's builder keeps the standard layout). */
export function poolInit(code: Cell, p: Omit<NominatorPoolConfig, 'validator'> & { validator: Address }): { code: Cell; data: Cell } {
  return { code, data: nominatorPoolInit(p).data! };
}

/** new_stake to the elector from `holder`, signed by the validator key (genesis-elector.ts builds it as the elector checks it). */
export const stakeBody = (p: { key: KeyPair; holder: Address; electionId: number; maxFactor: number; queryId: bigint }): Cell =>
  newStakeBody({ keys: p.key, sender: p.holder, electionId: p.electionId, maxFactor: p.maxFactor, queryId: p.queryId });

/** What a validator's wallet sends its pool to stake (pool.fc op::new_stake): the stake in coins, then the elector's payload signed for the pool. */
export function poolStakeBody(p: { key: KeyPair; pool: Address; electionId: number; maxFactor: number; queryId: bigint; value: bigint }): Cell {
  const payload = stakeBody({ ...p, holder: p.pool }).beginParse().skip(32 + 64);
  return beginCell().storeUint(OP.newStake, 32).storeUint(p.queryId, 64).storeCoins(p.value).storeSlice(payload).endCell();
}

/** An op with its query_id and nothing else (the pool's validator ops, recover_stake). */
export const opBody = (op: number, queryId = 0n): Cell => poolValidatorBody(op, queryId);

export { commentPayload as comment, recoverStakeBody, poolValidatorBody };

/** A complaint (elector-code.fc register_complaint; validator_complaint#bc): created_at and reward_addr are the elector's to fill. */
export function complaintBody(p: { queryId: bigint; electionId: number; pubkey: Buffer; description: Cell; severity: number; suggestedFine: bigint; suggestedFinePart: number }): Cell {
  return beginCell()
    .storeUint(OP.newComplaint, 32)
    .storeUint(p.queryId, 64)
    .storeUint(p.electionId, 32)
    .storeInt(0xbc - 0x100, 8)
    .storeBuffer(p.pubkey)
    .storeRef(p.description)
    .storeUint(0, 32)
    .storeUint(p.severity, 8)
    .storeUint(0, 256)
    .storeCoins(0)
    .storeCoins(p.suggestedFine)
    .storeUint(p.suggestedFinePart, 32)
    .endCell();
}

/** A vote for a complaint by the validator at `index` of the current set (elector-code.fc, op 0x56744370). */
export function voteBody(p: { queryId: bigint; key: KeyPair; index: number; electionId: number; complaintHash: bigint }): Cell {
  const signed = beginCell().storeUint(OP.voteSignature, 32).storeUint(p.index, 16).storeUint(p.electionId, 32).storeUint(p.complaintHash, 256).endCell();
  const signature = sign(signed.beginParse().loadBuffer(signed.bits.length / 8), p.key.secretKey);
  return beginCell().storeUint(OP.voteComplaint, 32).storeUint(p.queryId, 64).storeBuffer(signature).storeSlice(signed.beginParse()).endCell();
}

const shardAccountBoc = (sa: ShardAccount): string => beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');

/**
 * Sandbox's message queue (the Blockchain's protected defaultQueueManager): its iterator yields each transaction
 * of a cascade, so each is recorded with its own state after it, as Chain.execute does over sendMessageIter.
 */
interface Queue {
  pushTickTock(on: Address, which: 'tick' | 'tock'): Promise<void>;
  runQueueIter(needsLocking: boolean, params?: object): AsyncIterator<BlockchainTransaction>;
}

export class ElectorNetwork {
  /** the configuration as of the last sealed block: the config contract's data */
  params: ConfigDict;
  readonly source: V3ChainSource;
  readonly v3: V3Api;
  private readonly wallets = new Map<string, Wallet>();
  private utime: number;

  private constructor(
    readonly chain: Chain,
    readonly seed: string,
    params: ConfigDict,
    start: number,
  ) {
    this.params = params;
    this.utime = start;
    const v2 = localV2Api(chain);
    this.source = { store: chain.store, v2, globalId: chain.globalId, configParam: (id) => this.params.get(id) };
    this.v3 = localV3Api(this.source);
  }

  /** The chain's zerostate with the elector and config contract replaced by the network's, running `opts`'s configuration. */
  static async create(code: NetworkCode, opts: NetworkOptions): Promise<ElectorNetwork> {
    const chain = await Chain.create(opts.seed, 0);
    const params = loadConfig(chain.config);
    const t = opts.times;
    params.set(15, beginCell().storeUint(t.validatorsElectedFor, 32).storeUint(t.electionsStartBefore, 32).storeUint(t.electionsEndBefore, 32).storeUint(t.stakeHeldFor, 32).endCell());
    params.set(16, beginCell().storeUint(opts.validators.max, 16).storeUint(opts.validators.maxMain, 16).storeUint(opts.validators.min, 16).endCell());
    const l = opts.limits;
    params.set(17, beginCell().storeCoins(l.minStake).storeCoins(l.maxStake).storeCoins(l.minTotalStake).storeUint(l.maxStakeFactor, 32).endCell());
    params.set(34, opts.genesisSet);
    params.delete(32);
    params.delete(36);
    const net = new ElectorNetwork(chain, opts.seed, params, opts.start);
    const root = beginCell().storeDictDirect(params).endCell();
    const elector = net.electorAddress;
    const electorData = beginCell().storeDict(null).storeDict(null).storeDict(null).storeCoins(opts.electorGrams).storeUint(0, 32).storeUint(uint256(opts.genesisSet.hash()), 256).endCell();
    const configKey = keysOf(opts.seed, 'config').publicKey;
    const configData = beginCell().storeRef(root).storeUint(0, 32).storeBuffer(configKey).storeDict(null).endCell();
    await chain.enqueue(async () => {
      await net.place(elector, code.elector, electorData, opts.electorGrams + TON);
      await net.place(net.configAddress, code.config, configData, TON);
      chain.bc.setConfig(root);
    });
    return net;
  }

  get electorAddress(): Address {
    return new Address(-1, this.params.get(1)!.beginParse().loadBuffer(32));
  }

  get configAddress(): Address {
    return new Address(-1, this.params.get(0)!.beginParse().loadBuffer(32));
  }

  /** A special account (tick and tock) in the zerostate, replacing what the local chain placed there. */
  private async place(address: Address, code: Cell, data: Cell, balance: bigint): Promise<void> {
    const sa: ShardAccount = {
      account: {
        addr: address,
        storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: 0, duePayment: null, storageExtra: null },
        storage: { lastTransLt: 0n, balance: { coins: balance }, state: { type: 'active', state: { special: { tick: true, tock: true }, code, data } } },
      },
      lastTransactionLt: 0n,
      lastTransactionHash: 0n,
    };
    await this.chain.bc.setShardAccount(address, sa);
    this.chain.store.putGenesisState(address, shardAccountBoc(sa));
  }

  wallet(name: string, workchain: number): Wallet {
    let w = this.wallets.get(name);
    if (!w) {
      const keyPair = keysOf(this.seed, name);
      const contract = WalletContractV4.create({ workchain, publicKey: keyPair.publicKey });
      w = { name, keyPair, contract, address: contract.address, seqno: 0 };
      this.wallets.set(name, w);
    }
    return w;
  }

  /** A signed transfer from `w` (deploying it with its first), valid within the block. */
  transfer(w: Wallet, messages: MessageRelaxed[]): Cell {
    return signedTransfer(w, w.seqno++, messages, this.utime + 60);
  }

  /** An internal message for `transfer`. */
  static message(to: Address, value: bigint, body?: Cell, bounce = true): MessageRelaxed {
    return internal({ to, value, bounce, ...(body ? { body } : {}) });
  }

  /**
   * One masterchain block at `utime`: the elector's and the config contract's tick-tock, the faucet credits, then
   * the external messages (each with its whole cascade); sealed, and the config contract's data becomes the
   * configuration of the next block.
   */
  async block(utime: number, p: { fund?: [Wallet, bigint][]; send?: () => Cell[] } = {}): Promise<TxRecord[]> {
    this.utime = utime;
    this.chain.setOpenUtime(utime);
    const recs: TxRecord[] = [];
    await this.chain.enqueue(async () => {
      this.chain.bc.now = utime;
      recs.push(...(await this.tickTock(this.electorAddress)), ...(await this.tickTock(this.configAddress)));
    });
    for (const [w, amount] of p.fund ?? []) recs.push(await this.chain.faucet(w.address, amount, { seal: false }));
    for (const m of p.send?.() ?? []) recs.push(...(await this.chain.enqueue(() => this.chain.execute(m))));
    await this.chain.enqueue(() => this.chain.seal());
    const root = this.configData().beginParse().loadRef();
    if (!root.equals(beginCell().storeDictDirect(this.params).endCell())) {
      this.params = loadConfig(root);
      this.chain.bc.setConfig(root);
    }
    return recs;
  }

  /** The config contract's data as the chain holds it now. */
  configData(): Cell {
    const st = this.state(this.configAddress)?.account?.storage.state;
    if (st?.type !== 'active' || !st.state.data) throw new Error('the config contract is not active');
    return st.state.data;
  }

  /** An account's newest state in the chain's store; undefined when it never existed. */
  state(address: Address): ShardAccount | undefined {
    const boc = this.chain.store.newestStateBoc(address);
    return boc === undefined ? undefined : loadShardAccount(Cell.fromBase64(boc).beginParse());
  }

  /** A tick-tock transaction and what its messages cause, recorded as the chain records a message's cascade. */
  private async tickTock(address: Address): Promise<TxRecord[]> {
    const queue = (this.chain.bc as unknown as { defaultQueueManager: Queue }).defaultQueueManager;
    await queue.pushTickTock(address, 'tick');
    const iter = queue.runQueueIter(true, {});
    const recorded = new Map<BlockchainTransaction, TxRecord>();
    for (;;) {
      const step = await iter.next();
      if (step.done) break;
      const tx = step.value;
      // a tick-tock transaction has no message: it runs in the masterchain
      const dest = tx.inMessage?.info.dest;
      const account = dest instanceof Address ? dest : new Address(-1, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
      const contract = await this.chain.bc.getContract(account);
      const cells = messageCells(tx);
      const keys = tx.outMessages.keys().sort((a, b) => a - b);
      const outMsgs = cells.outMsgs.map((cell, i) => ({ msg: tx.outMessages.get(keys[i]!)!, cell }));
      const rec = this.chain.store.addPending(
        {
          hash: tx.hash().toString('hex'),
          account,
          lt: tx.lt,
          endLt: tx.lt + 1n + BigInt(outMsgs.length),
          now: tx.now,
          inMsgHash: cells.inMsg?.hash().toString('hex'),
          outMsgHashes: outMsgs.map((o) => o.cell.hash().toString('hex')),
          parent: tx.parent ? recorded.get(tx.parent) : undefined,
        },
        tx,
        shardAccountBoc(contract.account),
        tx.inMessage && cells.inMsg ? { msg: tx.inMessage, cell: cells.inMsg } : undefined,
        outMsgs,
      );
      recorded.set(tx, rec);
    }
    // the cursor is only read when a chain continues from its data dir, which this temporary one never does
    this.chain.store.commit({ lt: this.chain.bc.lt.toString(), utime: this.utime, faucetTransfers: 0 });
    return [...recorded.values()];
  }

  /** A get-method on an account's newest state, run by sandbox on the chain's executor (not through the readers). */
  async get(address: Address, method: string, args: { type: 'int'; value: bigint }[] = []): Promise<TupleItem[]> {
    const r = await this.chain.bc.runGetMethod(address, method, args);
    if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`${method}: exit code ${r.exitCode}`);
    return r.stack;
  }

  async close(): Promise<void> {
    await this.chain.close();
  }
}
