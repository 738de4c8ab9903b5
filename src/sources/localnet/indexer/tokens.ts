/**
 * The token events of one chain: TEP-74 jetton transfers and burns and TEP-62 NFT transfers, parsed from the
 * in-messages of sealed transactions on the contracts the contract index knows as jetton wallets and NFT items.
 */
import { rawUpper } from '../../../model/address.js';
import { bodyOp } from '../../../model/tlb/common.js';
import { JETTON_OP } from '../../../model/tlb/jetton.js';
import { NFT_OP } from '../../../model/tlb/nft.js';
import {
  loadJettonBurnBody,
  loadJettonTransferBody,
  loadNftTransferBody,
  type JettonBurnFields,
  type JettonTransferFields,
  type NftTransferFields,
} from '../../../model/v3/index.js';
import type { TxRecord } from '../chain/store.js';
import type { ContractState } from './contract-state.js';

export interface EventBase {
  rec: TxRecord;
  /** raw uppercase of the in-message's sender */
  sender: string;
  aborted: boolean;
}

export interface JettonTransferEvent extends EventBase {
  body: JettonTransferFields;
  wallet: string;
  master: string;
}

export interface JettonBurnEvent extends EventBase {
  body: JettonBurnFields;
  wallet: string;
  master: string;
}

export interface NftTransferEvent extends EventBase {
  body: NftTransferFields;
  item: string;
  collection: string | null;
}

/** Whether an in-message opcode can be a token event (decided from the store's message facts, without parsing). */
export const tokenOpcode = (op: number | null | undefined): boolean => op === JETTON_OP.transfer || op === JETTON_OP.burn || op === NFT_OP.transfer;

export class TokenEvents {
  readonly jettonTransfers: JettonTransferEvent[] = [];
  readonly jettonBurns: JettonBurnEvent[] = [];
  readonly nftTransfers: NftTransferEvent[] = [];
  /** static facts that outlive a contract's destruction, for parsing its old messages */
  private readonly wallets = new Map<string, { jetton: string }>();
  private readonly items = new Map<string, { collection: string | null }>();

  /** Remembers the master of a jetton wallet and the collection of an NFT item, read at `raw`. */
  learn(raw: string, state: ContractState): void {
    if (state.kind === 'jetton_wallet') this.wallets.set(raw, { jetton: state.jetton });
    if (state.kind === 'nft_item') this.items.set(raw, { collection: state.collection });
  }

  /** Token messages of one sealed transaction (TEP-74 transfer and burn on a jetton wallet, TEP-62 transfer on an item). */
  add(rec: TxRecord): void {
    const msg = rec.tx.inMessage;
    if (!msg || msg.info.type !== 'internal') return;
    const op = bodyOp(msg.body);
    if (op !== JETTON_OP.transfer && op !== JETTON_OP.burn && op !== NFT_OP.transfer) return;
    const raw = rawUpper(rec.account);
    const d = rec.tx.description;
    const base = { rec, sender: rawUpper(msg.info.src), aborted: d.type === 'generic' ? d.aborted : false };
    const wallet = this.wallets.get(raw);
    if (wallet && op === JETTON_OP.transfer) {
      const body = loadJettonTransferBody(msg.body);
      if (body) this.jettonTransfers.push({ ...base, body, wallet: raw, master: wallet.jetton });
    } else if (wallet && op === JETTON_OP.burn) {
      const body = loadJettonBurnBody(msg.body);
      if (body) this.jettonBurns.push({ ...base, body, wallet: raw, master: wallet.jetton });
    } else if (op === NFT_OP.transfer) {
      const item = this.items.get(raw);
      const body = item ? loadNftTransferBody(msg.body) : null;
      if (item && body) this.nftTransfers.push({ ...base, body, item: raw, collection: item.collection });
    }
  }
}
