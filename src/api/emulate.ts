/**
 * The Emulate API v1 seam (../shared/reference/emulate-v1.md): what a message would do, run on a copy of the
 * state at a masterchain block and never applied. A source supplies an EmulateApi; the REST surface
 * (surfaces/rest/emulate.ts) and the graph call it.
 *
 * The world an emulation runs in is pluggable (`EmulationWorld`): the local chain reads its own store; upstream
 * mode reads accounts, config and libraries from the upstream at the chosen block. The emulation core
 * (model/emulate/) needs nothing else.
 */
import type { Address, Cell, ShardAccount } from '@ton/core';
import type { PrevBlocksInfo } from '@ton/sandbox';
import type { Action } from './v3/actions.js';
import type { AddressBook, Metadata } from './v3/common.js';
import type { TraceNode } from './v3/traces.js';
import type { Transaction } from './v3/transactions.js';

/** The state an emulation starts from: one masterchain block's accounts, config and libraries. */
export interface EmulationWorld {
  /** the masterchain block whose state this is */
  readonly mcSeqno: number;
  /** its gen_utime */
  readonly utime: number;
  /** an lt above every transaction in that state (the emulation's transactions start here) */
  readonly lt: bigint;
  /** the blockchain config (ConfigParams dictionary root) as a base64 BoC */
  readonly config: string;
  /** the public libraries dictionary, or null for none */
  readonly libs: Cell | null;
  /** PREVBLOCKS (c7 parameter 13) as of that block, when the source knows it */
  readonly prevBlocks?: PrevBlocksInfo;
  /** Names this state: two worlds with the same key hold the same accounts (an executor may keep them between emulations). */
  readonly key?: string;
  /** The account's ShardAccount (code, data, balance, storage info, last transaction) at that block; null when it never existed. */
  account(address: Address): Promise<ShardAccount | null>;
}

/** Where worlds come from. */
export interface EmulationWorlds {
  /** The state at masterchain block `mcSeqno` (latest when absent); throws EmulateError when there is none. */
  at(mcSeqno?: number): Promise<EmulationWorld>;
}

/**
 * The reference's error: `{"error": text}` with this status (400 bad request, 500 runtime, 501 not available
 * here), and the gateway's own bounds: 413 an answer past its size, 429 no room to queue (with the seconds
 * after which to try again).
 */
export class EmulateError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'EmulateError';
  }
}

/** What both routes take besides their message. */
export interface EmulateOptions {
  with_actions?: boolean;
  include_code_data?: boolean;
  include_address_book?: boolean;
  include_metadata?: boolean;
  mc_block_seqno?: number | null;
  /** X-Actions-Version: the one name it holds (toncenter-newer.md §6); absent: latest, or v1 for TON Connect */
  actionsVersion?: string[];
  /** who asks, as the pipeline names clients (an API key's digest, else the IP): emulations are admitted per client; not a wire field */
  client?: string;
}

export interface EmulateTraceRequest extends EmulateOptions {
  /** the message BoC, base64 */
  boc: string;
  ignore_chksig?: boolean;
}

export interface TonConnectMessage {
  address: string;
  amount: string;
  payload?: string;
  stateInit?: string;
}

export interface EmulateTonConnectRequest extends EmulateOptions {
  from: string;
  messages: TonConnectMessage[];
  valid_until?: number | null;
}

/** One account's change over the emulated trace: TON and each jetton it holds, signed. */
export interface BalanceChange {
  /** raw address, uppercase */
  account: string;
  /** nanotons after minus before */
  ton: string;
  /** per jetton master (raw uppercase): the jetton wallet's balance after minus before */
  jettons: { jetton: string; wallet: string; amount: string }[];
}

export interface EmulateTraceResponse {
  mc_block_seqno: number;
  trace: TraceNode;
  transactions: Record<string, Transaction>;
  actions: Action[];
  code_cells: Record<string, string>;
  data_cells: Record<string, string>;
  address_book?: AddressBook;
  metadata?: Metadata;
  rand_seed: string;
  is_incomplete: boolean;
}

/** An emulation with what the graph shows beside the reference's answer (never part of the REST answer). */
export interface EmulationResult {
  response: EmulateTraceResponse;
  /** transactions in execution order (base64 hashes), each with its parent's hash */
  order: { hash: string; parent?: string }[];
  /** computed when first asked (it runs get_wallet_data on every touched account, before and after) */
  balanceChanges(): Promise<BalanceChange[]>;
  /** what the sender paid in fees: the total fees of its own transactions in the trace, nanotons */
  senderFees: string;
  /** raw uppercase address of the account the trace starts at */
  sender: string;
  /** `response` as JSON text (JSON.stringify's, exactly), written in slices within the emulation's deadline (a timeout past it) */
  json(): Promise<Buffer>;
}

export interface EmulateApi {
  emulateTrace(p: EmulateTraceRequest): Promise<EmulationResult>;
  emulateTonConnect(p: EmulateTonConnectRequest): Promise<EmulationResult>;
  /** Upstream passthrough: the upstream's own answer, as it gave it (status and body). Absent on a source that emulates itself. */
  passthrough?(route: 'emulateTrace' | 'emulateTonConnect', body: unknown, actionsVersion: string | undefined): Promise<{ status: number; body: string }>;
}

/** The Emulate API's bounds beyond one emulation's time, whichever source emulates (the general option `emulate`). */
export interface EmulateBounds {
  /** bytes of message BoCs one answer may print, a message counted where it is sent and where it is received */
  maxAnswerBytes: number;
  /** cells of those BoCs */
  maxAnswerCells: number;
  /** emulations running at once */
  running: number;
  /** emulations waiting for a turn, over every client */
  queued: number;
  /** emulations one client may have running or waiting */
  perClient: number;
}

/** Checks of both routes' shared fields, and the TON Connect request's own checks, as the reference words them. */
export const EMULATE_LIMITS = {
  /** transactions emulated at most; reaching it sets is_incomplete */
  maxTransactions: 256,
  /** levels of the trace emulated at most (the external's transaction is level 1); deeper messages are dropped silently */
  maxDepth: 32,
  /** messages of one TON Connect request at most */
  maxTonConnectMessages: 4,
} as const;
