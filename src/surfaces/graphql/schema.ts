/** The schema: every type file adds itself to the builder, then it is built once. */
import './types/account.js';
import './types/balance-changes.js';
import './types/block.js';
import './types/config.js';
import './types/emulate.js';
import './types/fees.js';
import './types/get-method.js';
import './types/markets.js';
import './types/dns-auctions.js';
import './types/message.js';
import './types/send-message.js';
import './types/service-config.js';
import './types/subscription.js';
import './types/live.js';
import './types/localnet.js';
import './types/tokens.js';
import './types/trace.js';
import './types/transaction.js';
import './types/webhook.js';
import { builder } from './builder.js';

export const schema = builder.toSchema({ sortSchema: true });
