/** v3 messages (v3.md §2.1 /messages). */
import type { Address } from '@ton/core';
import { ApiError } from '../errors.js';
import { type CachePolicy, NO_CACHE } from '../descriptor.js';
import type {
  AddressBook,
  Direction,
  ExtraCurrencies,
  LtWindow,
  Metadata,
  PageParams,
  SortParams,
  UtimeWindow,
  V3Options,
} from './common.js';
import {
  addressNullable,
  bool,
  direction,
  hash,
  list,
  listOf,
  ltParams,
  opcode,
  pageParams,
  sortParam,
  utimeParams,
  v3Route,
} from './params.js';

export interface MessageContent {
  /** cell hash of the body (or of the StateInit for `init_state`) */
  hash: string | null;
  /** BoC, base64 */
  body: string | null;
  /** `{type:"text_comment", comment}` for op 0 text bodies, otherwise null */
  decoded: Record<string, unknown> | null;
}

export interface Message {
  hash: string;
  /** raw uppercase; null for external-in */
  source: string | null;
  /** raw uppercase; null for external-out */
  destination: string | null;
  /** internal only; null on external messages */
  value: string | null;
  value_extra_currencies: ExtraCurrencies | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  extra_flags: string | null;
  /** null on external-in */
  created_lt: string | null;
  created_at: string | null;
  /**
   * "0x%08x" of the body's first 32 bits; null when the body is shorter
   * @pattern ^0x[0-9a-f]{8}$
   */
  opcode: string | null;
  decoded_opcode: string | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /** external-in only */
  import_fee: string | null;
  /** only on /messages: the transaction that received it */
  in_msg_tx_hash?: string;
  /** only on /messages: the transaction that sent it */
  out_msg_tx_hash?: string;
  message_content: MessageContent | null;
  init_state: MessageContent | null;
  /** TEP-467 normalised hash, external-in messages only */
  hash_norm?: string;
}

export interface MessagesResponse {
  messages: Message[];
  address_book: AddressBook;
  metadata: Metadata;
}

export interface MessagesParams extends PageParams, SortParams, UtimeWindow, LtWindow, V3Options {
  /** `msg_hash[]`, or the legacy `hash[]` when only it is sent; matches either the hash or the normalised hash */
  msgHash?: Buffer[];
  bodyHash?: Buffer;
  /** null = external-in only (source IS NULL) */
  source?: Address | null;
  /** null = external-out only (destination IS NULL) */
  destination?: Address | null;
  opcode?: number;
  direction?: Direction;
  excludeExternals?: boolean;
  onlyExternals?: boolean;
}

/** What a source answers for these routes. */
export interface MessagesApi {
  messages(p: MessagesParams): Promise<MessagesResponse>;
}

/** A message is final once the transaction that received it exists (or it has no receiver). */
const FINAL_MESSAGES: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const msgs = listOf(v, 'messages');
    return msgs.length > 0 && msgs.every((m) => m.destination === null || typeof m.in_msg_tx_hash === 'string');
  },
};

/** The params of /messages, also the filters of GraphQL's messages. */
export const MESSAGES_PARAMS = {
  msg_hash: list(hash()),
  // the legacy `hash[]`: moved into msgHash by the route's check, never sent upstream as itself
  hash: list(hash({ field: 'legacyHash', upstream: false })),
  body_hash: hash(),
  source: addressNullable(),
  destination: addressNullable(),
  opcode: opcode(),
  ...utimeParams,
  ...ltParams,
  // checked by the query builder, after the handler's hash rule (toncenter-newer.md §3)
  direction: direction({ late: true }),
  exclude_externals: bool(),
  only_externals: bool(),
  ...pageParams,
  ...sortParam,
};

export const MESSAGE_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/messages',
    summary: 'Messages by filter',
    params: MESSAGES_PARAMS,
    response: 'MessagesResponse',
    top: 'messages',
    cache: (p: MessagesParams) =>
      p.msgHash?.length && !p.direction && p.source === undefined && p.destination === undefined ? FINAL_MESSAGES : NO_CACHE,
    api: 'messages',
    options: true,
    check: (p: MessagesParams & { legacyHash?: Buffer[] }) => {
      if (p.legacyHash) {
        if (p.msgHash) throw new ApiError(422, 'cannot use both legacy and new message hashes');
        p.msgHash = p.legacyHash;
        delete p.legacyHash;
      }
    },
  }),
];
