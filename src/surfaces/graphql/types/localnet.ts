/**
 * The local chain's workbench in the graph (api/localnet.ts): acton's control API and the drills as mutations
 * under one namespace, `mutation { localnet { … } }`, and what they read as `query { localnet { … } }`. The
 * namespace's fields run one after another in the order written (as top-level mutation fields would), each one
 * once the one before it has answered. Each answers what the REST route answers, in the graph's names; a
 * failure is the route's error with its code. Upstream mode has no local chain: both namespaces answer an error.
 */
import { ApiError } from '../../../api/errors.js';
import type {
  AccountStateChange,
  CheckpointInfo,
  ClockInfo,
  DrillResult,
  FinalityInfo,
  LocalnetWorkbench,
  MineResult,
  NodeInfo,
  ReorgResult,
  StartupAccount,
} from '../../../api/localnet.js';
import { builder, type GraphQLContext } from '../builder.js';

/** The namespace's object: the workbench, and the chain of its fields run so far in this operation. */
interface Namespace {
  readonly w: LocalnetWorkbench;
  turn: Promise<unknown>;
}

function workbenchOf(ctx: GraphQLContext): LocalnetWorkbench {
  if (!ctx.capabilities.control) throw new ApiError(404, 'localnet needs the local chain: this gateway serves upstream mode (BACKEND=localnet serves a local chain or a fork)');
  const control = ctx.capabilities.control();
  if (!control) throw new ApiError(503, 'local chain is starting');
  return control.workbench;
}

/** Runs `op` after the namespace's fields before it, whether they succeeded or not. */
function inTurn<T>(ns: Namespace, op: (w: LocalnetWorkbench) => Promise<T>): Promise<T> {
  const run = ns.turn.then(() => op(ns.w));
  ns.turn = run.catch(() => undefined);
  return run;
}

const AcceptedMessageRef = builder.objectRef<{ hash: string }>('LocalnetAcceptedMessage').implement({
  description: 'A message queued: it runs when a block is mined.',
  fields: (t) => ({ hash: t.field({ type: 'Hash', description: 'The queued message.', resolve: (r) => r.hash }) }),
});

const BlockIdRef = builder.objectRef<MineResult['blocks'][number]>('LocalnetBlockId').implement({
  fields: (t) => ({
    workchain: t.int({ resolve: (b) => b.workchain }),
    shard: t.string({ description: 'Signed 64-bit, decimal.', resolve: (b) => b.shard.toString() }),
    seqno: t.int({ resolve: (b) => b.seqno }),
    rootHash: t.field({ type: 'Hash', resolve: (b) => Buffer.from(b.root_hash, 'hex') }),
    fileHash: t.field({ type: 'Hash', resolve: (b) => Buffer.from(b.file_hash, 'hex') }),
  }),
});

const MineResultRef = builder.objectRef<MineResult>('LocalnetMineResult').implement({
  fields: (t) => ({
    blocksMined: t.int({ resolve: (r) => r.blocks_mined }),
    skippedEmptyBlocks: t.int({ resolve: (r) => r.skipped_empty_blocks }),
    lastBlockSeqno: t.int({ resolve: (r) => r.last_block_seqno }),
    blocks: t.field({ type: [BlockIdRef], description: 'The basechain blocks sealed.', resolve: (r) => r.blocks }),
  }),
});

const ClockRef = builder.objectRef<ClockInfo>('LocalnetClock').implement({
  description: 'Virtual time: the wall clock plus an offset, and a one-shot time for the next block.',
  fields: (t) => ({
    currentUnixTime: t.int({ resolve: (c) => c.current_unix_time }),
    timeOffsetSeconds: t.int({ resolve: (c) => c.time_offset_seconds }),
    nextBlockTimestamp: t.int({ nullable: true, resolve: (c) => c.next_block_timestamp }),
  }),
});

const CheckpointRef = builder.objectRef<CheckpointInfo>('LocalnetCheckpoint').implement({
  fields: (t) => ({ name: t.string({ resolve: (c) => c.name }), blockSeqno: t.int({ resolve: (c) => c.block_seqno }) }),
});

const ConfigSetRef = builder.objectRef<{ config_hash: string; block_seqno: number }>('LocalnetConfigSet').implement({
  fields: (t) => ({
    configHash: t.field({ type: 'Hash', resolve: (c) => Buffer.from(c.config_hash, 'hex') }),
    blockSeqno: t.int({ description: 'The block that carries the new config.', resolve: (c) => c.block_seqno }),
  }),
});

const DrillRef = builder.objectRef<DrillResult>('LocalnetDrill').implement({
  description: 'What a rollback or reset undid.',
  fields: (t) => ({
    fromSeqno: t.int({ resolve: (d) => d.from_seqno }),
    toSeqno: t.int({ resolve: (d) => d.to_seqno }),
    blocksUndone: t.int({ resolve: (d) => d.blocks_undone }),
    transactionsUndone: t.int({ resolve: (d) => d.transactions_undone }),
    undoneTraces: t.field({
      type: ['Hash'],
      description: "The traces undone, by their external message's normalised hash: live subscriptions sent a non-final event of one get an invalidation.",
      resolve: (d) => d.undone_traces,
    }),
  }),
});

const ReorgBlockRef = builder.objectRef<ReorgResult['blocks'][number]>('LocalnetReorgBlock').implement({
  fields: (t) => ({
    seqno: t.int({ resolve: (b) => b.seqno }),
    rootHash: t.field({ type: 'Hash', resolve: (b) => b.root_hash }),
    fileHash: t.field({ type: 'Hash', resolve: (b) => b.file_hash }),
    transactions: t.int({ resolve: (b) => b.transactions }),
  }),
});

const ReorgRef = builder.objectRef<ReorgResult>('LocalnetReorg').implement({
  description: 'What a reorg undid, and the blocks that replaced it.',
  fields: (t) => ({
    drill: t.field({ type: DrillRef, description: 'What was undone.', resolve: (r) => r }),
    blocks: t.field({ type: [ReorgBlockRef], description: 'The replacement masterchain blocks, oldest first.', resolve: (r) => r.blocks }),
    messagesExecuted: t.int({ resolve: (r) => r.messages_executed }),
    messagesFailed: t.int({ description: 'Messages that failed to run again, left out as a block leaves them.', resolve: (r) => r.messages_failed }),
  }),
});

const FinalityRef = builder.objectRef<FinalityInfo>('LocalnetFinality').implement({
  fields: (t) => ({
    finalityDelayMs: t.int({ resolve: (f) => f.finality_delay_ms }),
    lastBlockSeqno: t.int({ resolve: (f) => f.last_block_seqno }),
    lastFinalizedSeqno: t.int({ resolve: (f) => f.last_finalized_seqno }),
  }),
});

const NodeInfoRef = builder.objectRef<NodeInfo>('LocalnetNodeInfo').implement({
  fields: (t) => ({
    uptimeSeconds: t.int({ resolve: (n) => n.uptime_seconds }),
    lastBlockSeqno: t.int({ resolve: (n) => n.last_block_seqno }),
    clock: t.field({ type: ClockRef, resolve: (n) => n }),
    autoMining: t.boolean({ resolve: (n) => n.auto_mining }),
    blockIntervalMs: t.int({ resolve: (n) => n.block_interval_ms }),
    skipEmptyBlocks: t.boolean({ resolve: (n) => n.mining_mode.skip_empty_blocks }),
    stateSource: t.string({ description: '`local`, or `remote` on a fork.', resolve: (n) => n.state_source }),
    forkNetwork: t.string({ nullable: true, resolve: (n) => n.fork_network }),
    forkBlockNumber: t.int({ nullable: true, resolve: (n) => n.fork_block_number }),
    responseDelayMs: t.int({ resolve: (n) => n.network_conditions.response_delay_ms }),
  }),
});

const StartupAccountRef = builder.objectRef<StartupAccount>('LocalnetStartupAccount').implement({
  fields: (t) => ({
    name: t.string({ resolve: (a) => a.name }),
    version: t.string({ resolve: (a) => a.version }),
    address: t.field({ type: 'Address', resolve: (a) => a.address }),
  }),
});

const AccountStateKind = builder.enumType('LocalnetAccountStateKind', { values: ['NONEXIST', 'UNINIT', 'FROZEN'] as const });

const AccountStateInput = builder.inputType('LocalnetAccountStateInput', {
  description: "acton_changeAccountState's state: nonexist, uninit (with a balance), or frozen (by a hash with a balance, or `fromCurrent`).",
  fields: (t) => ({
    kind: t.field({ type: AccountStateKind, required: true }),
    balance: t.field({ type: 'BigInt', description: 'Nanotons (uninit and frozen by hash; default 0).' }),
    frozenHash: t.field({ type: 'Hash', description: 'The frozen StateInit hash.' }),
    fromCurrent: t.boolean({ description: "Freeze the account's current active state with a transaction, keeping its balance." }),
  }),
});

function changeOf(s: { kind: 'NONEXIST' | 'UNINIT' | 'FROZEN'; balance?: bigint | null; frozenHash?: Buffer | null; fromCurrent?: boolean | null }): AccountStateChange {
  const balance = s.balance == null ? {} : { balance: s.balance.toString() };
  if (s.kind === 'NONEXIST') return { type: 'nonexist' };
  if (s.kind === 'UNINIT') return { type: 'uninit', ...balance };
  return { type: 'frozen', ...balance, ...(s.fromCurrent ? { source: 'current' } : {}), ...(s.frozenHash ? { frozen_hash: s.frozenHash.toString('hex') } : {}) };
}

const NamespaceRef = builder.objectRef<Namespace>('LocalnetMutations');
NamespaceRef.implement({
  description: "The local chain's workbench: acton's control API and the drills. Fields run one after another, in the order written; one that fails is null with its error, the others stand.",
  fields: (t) => ({
    fundAccount: t.field({
      nullable: true,
      type: AcceptedMessageRef,
      description: 'acton_fundAccount: a credit of `amount` nanotons from the giver, landing when a block is mined.',
      args: { address: t.arg({ type: 'Address', required: true }), amount: t.arg({ type: 'BigInt', required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.fundAccount(a.address.toRawString(), a.amount)),
    }),
    fundJetton: t.field({
      nullable: true,
      type: AcceptedMessageRef,
      description: "acton_fundJetton: a mint of `amount` (display units, e.g. \"12.5\") as if the jetton's admin asked.",
      args: { address: t.arg({ type: 'Address', required: true }), jettonMaster: t.arg({ type: 'Address', required: true }), amount: t.arg.string({ required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.fundJetton(a.address.toRawString(), a.jettonMaster.toRawString(), a.amount)),
    }),
    sendInternalMessage: t.field({
      nullable: true,
      type: AcceptedMessageRef,
      description: 'acton_sendInternalMessage: an internal message run as given; its source is neither checked nor debited.',
      args: { boc: t.arg({ type: 'Boc', required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.sendInternalMessage(a.boc.toString('base64'))),
    }),
    setShardAccount: t.boolean({
      nullable: true,
      description: "acton_setShardAccount: replaces the account's newest state (a ShardAccount BoC); no transaction, no block.",
      args: { address: t.arg({ type: 'Address', required: true }), shardAccount: t.arg({ type: 'Boc', required: true }) },
      resolve: (ns, a) => inTurn(ns, async (w) => (await w.setShardAccount(a.address.toRawString(), a.shardAccount.toString('base64'))) === null),
    }),
    changeAccountState: t.boolean({
      nullable: true,
      description: 'acton_changeAccountState.',
      args: { address: t.arg({ type: 'Address', required: true }), state: t.arg({ type: AccountStateInput, required: true }), mine: t.arg.boolean({ defaultValue: true }) },
      resolve: (ns, a) => inTurn(ns, async (w) => (await w.changeAccountState(a.address.toRawString(), changeOf(a.state), a.mine ?? true)) === null),
    }),
    setConfig: t.field({
      nullable: true,
      type: ConfigSetRef,
      description: 'acton_setConfig: the chain runs with this config (a ConfigParams dictionary BoC) from a new block on.',
      args: { config: t.arg({ type: 'Boc', required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.setConfig(a.config.toString('base64'))),
    }),
    mine: t.field({
      nullable: true,
      type: MineResultRef,
      description: 'acton_mine: seals `blocks` blocks under the mining mode.',
      args: { blocks: t.arg.int({ defaultValue: 1 }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.mine(a.blocks ?? 1)),
    }),
    setMiningMode: t.boolean({
      nullable: true,
      description: 'acton_setMiningMode: whether empty blocks are skipped; answers the new setting.',
      args: { skipEmptyBlocks: t.arg.boolean({ required: true }) },
      resolve: (ns, a) => inTurn(ns, async (w) => (await w.setMiningMode(a.skipEmptyBlocks)).skip_empty_blocks),
    }),
    increaseTime: t.field({ nullable: true, type: ClockRef, args: { seconds: t.arg.int({ required: true }) }, resolve: (ns, a) => inTurn(ns, (w) => w.increaseTime(a.seconds)) }),
    setTime: t.field({ nullable: true, type: ClockRef, args: { timestamp: t.arg.int({ required: true }) }, resolve: (ns, a) => inTurn(ns, (w) => w.setTime(a.timestamp)) }),
    setNextBlockTimestamp: t.field({ nullable: true, type: ClockRef, args: { timestamp: t.arg.int({ required: true }) }, resolve: (ns, a) => inTurn(ns, (w) => w.setNextBlockTimestamp(a.timestamp)) }),
    createCheckpoint: t.field({
      nullable: true,
      type: CheckpointRef,
      args: { name: t.arg.string({ required: true }), force: t.arg.boolean({ defaultValue: false }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.createCheckpoint(a.name, a.force ?? false)),
    }),
    restoreCheckpoint: t.field({ nullable: true, type: CheckpointRef, args: { name: t.arg.string({ required: true }) }, resolve: (ns, a) => inTurn(ns, (w) => w.restoreCheckpoint(a.name)) }),
    deleteCheckpoint: t.field({ nullable: true, type: CheckpointRef, args: { name: t.arg.string({ required: true }) }, resolve: (ns, a) => inTurn(ns, (w) => w.deleteCheckpoint(a.name)) }),
    clearCheckpoints: t.int({ nullable: true, description: 'How many were deleted.', resolve: (ns) => inTurn(ns, async (w) => (await w.clearCheckpoints()).deleted) }),
    setNetworkConditions: t.int({
      nullable: true,
      description: 'acton_setNetworkConditions: the delay added to /api answers, ms (0: none); answers the new delay.',
      args: { responseDelayMs: t.arg.int({ required: true }) },
      resolve: (ns, a) => inTurn(ns, async (w) => (await w.setNetworkConditions(a.responseDelayMs)).response_delay_ms),
    }),
    rollback: t.field({
      nullable: true,
      type: DrillRef,
      description: 'Undoes the unfinalized blocks after `toSeqno`, and what is pending.',
      args: { toSeqno: t.arg.int({ required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.rollback(a.toSeqno)),
    }),
    reorg: t.field({
      nullable: true,
      type: ReorgRef,
      description: 'Replaces the newest `depth` unfinalized blocks: with `replay`, holding the same messages again; `messages` are added to the last.',
      args: { depth: t.arg.int({ required: true }), replay: t.arg.boolean({ defaultValue: true }), messages: t.arg({ type: ['Boc'], defaultValue: [] }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.reorg(a.depth, a.replay ?? true, (a.messages ?? []).map((m) => m.toString('base64')))),
    }),
    reset: t.field({
      nullable: true,
      type: DrillRef,
      description: 'Back to the chain as genesis (or the fork block) left it, without a restart.',
      args: { forkBlock: t.arg.int() },
      resolve: (ns, a) => inTurn(ns, (w) => w.reset(a.forkBlock ?? undefined)),
    }),
    setFinalityDelay: t.field({
      nullable: true,
      type: FinalityRef,
      description: 'How long a sealed block stays confirmed before it is final (0: at once).',
      args: { ms: t.arg.int({ required: true }) },
      resolve: (ns, a) => inTurn(ns, (w) => w.setFinalityDelay(a.ms)),
    }),
  }),
});

builder.mutationField('localnet', (t) =>
  t.field({
    type: NamespaceRef,
    description: "The local chain's workbench (acton's control API and the drills); an error in upstream mode.",
    resolve: (_root, _args, ctx) => ({ w: workbenchOf(ctx), turn: Promise.resolve() }),
  }),
);

const InfoRef = builder.objectRef<LocalnetWorkbench>('LocalnetInfo').implement({
  description: "What the local chain's workbench says of itself.",
  fields: (t) => ({
    nodeInfo: t.field({ type: NodeInfoRef, resolve: (w) => w.nodeInfo() }),
    checkpoints: t.field({ type: [CheckpointRef], resolve: (w) => w.listCheckpoints() }),
    startupAccounts: t.field({ type: [StartupAccountRef], resolve: (w) => w.startupAccounts() }),
    finality: t.field({ type: FinalityRef, resolve: (w) => w.finality() }),
  }),
});

builder.queryField('localnet', (t) =>
  t.field({ type: InfoRef, description: "The local chain's workbench; an error in upstream mode.", resolve: (_root, _args, ctx) => workbenchOf(ctx) }),
);
