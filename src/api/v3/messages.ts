/** v3 messages (v3.md §2.1 /messages). */
import { NO_CACHE, type CachePolicy } from '../descriptor.js';
import type { MessagesParams } from '../v3.js';
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

/** A message is final once the transaction that received it exists (or it has no receiver). */
const FINAL_MESSAGES: CachePolicy = {
  kind: 'immutable',
  keep: (v) => {
    const msgs = listOf(v, 'messages');
    return msgs.length > 0 && msgs.every((m) => m.destination === null || typeof m.in_msg_tx_hash === 'string');
  },
};

export const MESSAGE_ROUTES = [
  v3Route({
    methods: ['GET'],
    path: '/messages',
    summary: 'Messages by filter',
    params: {
      msg_hash: list(hash()),
      // the legacy single `hash` applies only when msg_hash is not given
      hash: hash({ fills: 'msgHash', upstream: false, check: (h?: Buffer) => h && [h] }),
      body_hash: hash(),
      source: addressNullable(),
      destination: addressNullable(),
      opcode: opcode(),
      ...utimeParams,
      ...ltParams,
      direction: direction(),
      exclude_externals: bool(),
      only_externals: bool(),
      ...pageParams,
      ...sortParam,
    },
    response: 'MessagesResponse',
    top: 'messages',
    cache: (p: MessagesParams) =>
      p.msgHash?.length && !p.direction && p.source === undefined && p.destination === undefined ? FINAL_MESSAGES : NO_CACHE,
    api: 'messages',
    options: true,
  }),
];
