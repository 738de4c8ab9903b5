/** Control surface that exists only on the embedded local chain: genesis wallets and tokens, a faucet, and the workbench. */
import type { Address, Cell, StateInit } from '@ton/core';
import type { FullAccountState } from './v2/accounts.js';
import type { DeepReadonly } from './shared-answers.js';

export interface GenesisWallet {
  name: string;
  /** raw form "0:abc…" */
  address: string;
  version: 'v4r2' | 'v5r1';
  mnemonic: string[];
  /** nanotons, decimal string */
  balance: string;
}

/** The token contracts genesis deploys; addresses in raw form "0:abc…". */
export interface LocalnetTokens {
  jetton: {
    master: string;
    name: string;
    symbol: string;
    decimals: number;
    /** the jetton wallets genesis mints or transfers to, by the genesis wallet owning them */
    wallets: { owner: string; owner_address: string; address: string }[];
  };
  nft_collection: {
    address: string;
    name: string;
    /** items as minted; current owners are on chain (getTokenData) */
    items: { index: number; address: string }[];
  };
  /** the listings genesis makes: a collection item on a fixed-price sale and one on an auction, by their sellers */
  nft_sales: { type: 'fixed_price' | 'auction'; address: string; item_index: number; seller: string }[];
}

/** An internal message delivered as if `from` had sent it (POST /localnet/impersonate). */
export interface Impersonation {
  from: Address;
  to: Address;
  /** nanotons the message carries, created locally as the faucet's are */
  value: bigint;
  bounce: boolean;
  body?: Cell;
  stateInit?: StateInit;
}

/** Where an account's state came from: fetched from a fork's network and not changed since, or made locally. */
export type AccountOrigin = 'FORK' | 'LOCAL';

export interface LocalnetControl {
  wallets(): GenesisWallet[] | Promise<GenesisWallet[]>;
  tokens(): LocalnetTokens | Promise<LocalnetTokens>;
  faucet(address: Address, amount: bigint): Promise<{ hash: string }>;
  /** Runs the message and its cascade; the hashes (base64) of the transactions, the receiver's first. */
  impersonate(m: Impersonation): Promise<{ hash: string; transactions: string[] }>;
  /** Runs an external message to a wallet without that wallet's signature check, and its cascade. */
  impersonateExternal(message: Cell): Promise<{ hash: string; transactions: string[] }>;
  /** the masterchain seqno the chain forked at; null when it is not a fork */
  forkBlock(): number | null;
  /** FORK while the account's state is the one read at the fork block (no local transaction yet); LOCAL otherwise */
  accountOrigin(address: Address): AccountOrigin;
  /** the account as the fork's network holds it now; null when the chain is not a fork */
  upstreamState(address: Address): Promise<DeepReadonly<FullAccountState> | null>;
  /** acton's control API and the drills */
  readonly workbench: LocalnetWorkbench;
  /**
   * Holds a read of the chain (one request) until the returned function is called, so that it sees the chain on
   * one side of a rewind: a restore, rollback, reorg or reset waits for the reads held and holds new ones back
   * until it is done. The release comes at once when no rewind runs.
   */
  read(): (() => void) | Promise<() => void>;
}

/**
 * The local chain as a workbench: acton's control API (../shared/reference/acton-localnet.md), answered in its wire
 * form, and the drills acton lacks (rollback, reorg, reset, a finality delay). Failures are ApiErrors with acton's
 * texts and statuses (500 for what acton leaves untyped, 422 for what it calls an invalid request).
 */
export interface LocalnetWorkbench {
  /** acton_fundAccount: the hash (base64) of the internal message from the giver */
  fundAccount(address: string, amount: bigint): Promise<AcceptedMessage>;
  /** acton_fundJetton: a mint as if from the jetton's admin; `amount` in the jetton's display units */
  fundJetton(address: string, jettonMaster: string, amount: string): Promise<AcceptedMessage>;
  /** acton_sendInternalMessage: an internal message run as given (its source is neither checked nor debited) */
  sendInternalMessage(boc: string): Promise<AcceptedMessage>;
  /** acton_setShardAccount: replaces the account's newest state; no transaction, no block */
  setShardAccount(address: string, shardAccount: string): Promise<null>;
  /** acton_changeAccountState */
  changeAccountState(address: string, change: AccountStateChange, mine: boolean): Promise<null>;
  /** acton_setConfig: the chain runs with this config from a new block on */
  setConfig(config: string): Promise<{ config_hash: string; block_seqno: number }>;
  mine(blocks: number): Promise<MineResult>;
  setMiningMode(skipEmptyBlocks: boolean): Promise<{ skip_empty_blocks: boolean }>;
  increaseTime(seconds: number): Promise<ClockInfo>;
  setTime(timestamp: number): Promise<ClockInfo>;
  setNextBlockTimestamp(timestamp: number): Promise<ClockInfo>;
  createCheckpoint(name: string, force: boolean): Promise<CheckpointInfo>;
  listCheckpoints(): Promise<CheckpointInfo[]>;
  restoreCheckpoint(name: string): Promise<CheckpointInfo>;
  deleteCheckpoint(name: string): Promise<CheckpointInfo>;
  clearCheckpoints(): Promise<{ deleted: number }>;
  exportCheckpoint(name: string): Promise<Buffer>;
  importCheckpoint(name: string, json: Buffer, force: boolean): Promise<CheckpointInfo>;
  /** the state file: a JSON document in acton's NodeStateSnapshot layout */
  dumpState(): Promise<Buffer>;
  loadState(json: Buffer): Promise<null>;
  nodeInfo(): Promise<NodeInfo>;
  setNetworkConditions(responseDelayMs: number): Promise<{ response_delay_ms: number }>;
  /** the delay acton_setNetworkConditions set, for the pipeline to add to /api answers */
  readonly responseDelayMs: number;
  /** acton_getStartupAccounts: the genesis wallets */
  startupAccounts(): Promise<StartupAccount[]>;
  /** POST /localnet/rollback: undoes the unfinalized blocks after `toSeqno` and what is pending */
  rollback(toSeqno: number): Promise<DrillResult>;
  /** POST /localnet/reorg: replaces the newest `depth` unfinalized blocks */
  reorg(depth: number, replay: boolean, messages: string[]): Promise<ReorgResult>;
  /** POST /localnet/reset: back to the chain as genesis (or the fork block) left it */
  reset(forkBlock?: number): Promise<DrillResult>;
  /** the finality delay and where finality stands */
  finality(): Promise<FinalityInfo>;
  setFinalityDelay(ms: number): Promise<FinalityInfo>;
}

/** acton's answer to a message it queued: `{"@type":"ok","hash":<base64>}`. */
export interface AcceptedMessage {
  '@type': 'ok';
  hash: string;
}

/** acton_changeAccountState's `state`, tagged by `type`. */
export type AccountStateChange =
  | { type: 'nonexist' }
  | { type: 'uninit'; balance?: string }
  | { type: 'frozen'; source?: string; frozen_hash?: string; balance?: string };

/** A basechain block id as acton_mine lists it (hashes hex; the shard a signed 64-bit integer). */
export interface ActonBlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

export interface MineResult {
  blocks_mined: number;
  skipped_empty_blocks: number;
  last_block_seqno: number;
  blocks: ActonBlockId[];
}

export interface ClockInfo {
  current_unix_time: number;
  time_offset_seconds: number;
  next_block_timestamp: number | null;
}

export interface CheckpointInfo {
  name: string;
  block_seqno: number;
}

export interface NodeInfo {
  uptime_seconds: number;
  last_block_seqno: number;
  current_unix_time: number;
  time_offset_seconds: number;
  next_block_timestamp: number | null;
  auto_mining: boolean;
  block_interval_ms: number;
  rate_limit_rps: number | null;
  mining_mode: { skip_empty_blocks: boolean };
  state_source: 'local' | 'remote';
  fork_network: string | null;
  fork_block_number: number | null;
  network_conditions: { response_delay_ms: number };
}

export interface StartupAccount {
  name: string;
  version: string;
  network: string;
  address: string;
}

/** What a rollback or reset undid. */
export interface DrillResult {
  /** the newest masterchain block before and after */
  from_seqno: number;
  to_seqno: number;
  /** masterchain blocks and transactions undone */
  blocks_undone: number;
  transactions_undone: number;
  /**
   * the traces undone, by the hash clients know them by (base64: their external message's normalised hash);
   * a streaming client sent a non-final event of one is sent trace_invalidated for it
   */
  undone_traces: string[];
}

export interface ReorgResult extends DrillResult {
  /** the replacement masterchain blocks, oldest first */
  blocks: { seqno: number; root_hash: string; file_hash: string; transactions: number }[];
  /** messages executed again or anew, and those that failed to (left out, as a block leaves a failing message) */
  messages_executed: number;
  messages_failed: number;
}

export interface FinalityInfo {
  finality_delay_ms: number;
  last_block_seqno: number;
  last_finalized_seqno: number;
}
