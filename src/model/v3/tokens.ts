/**
 * Token message bodies as the v3 indexer reads them (v3.md §2.3, §2.4): the TEP-74 and TEP-62 schemes of
 * model/tlb, with the indexer's rules on top. A body that does not follow its scheme, or names an external
 * address where a std one belongs, is skipped (null); an empty forward payload is none.
 * Payload cells print as base64 BoCs; a forward payload is decoded the way message bodies are (text comments).
 */
import { Address, type Cell, type Slice } from '@ton/core';
import { bocB64 } from '../message.js';
import { decodeBody } from './message.js';
import type { MsgAddress } from '../tlb/common.js';
import { loadJettonBurn, loadJettonTransfer, type JettonBurn, type JettonTransfer } from '../tlb/jetton.js';
import { loadNftTransfer, type NftTransfer } from '../tlb/nft.js';

type Std<T> = { [K in keyof T]: T[K] extends MsgAddress ? Address | null : T[K] };

export type JettonTransferFields = Std<JettonTransfer>;
export type JettonBurnFields = Std<JettonBurn>;
export type NftTransferFields = Std<NftTransfer>;

class NotStd extends Error {}

const std = (a: MsgAddress): Address | null => {
  if (a !== null && !Address.isAddress(a)) throw new NotStd();
  return a;
};

const nonEmpty = (c: Cell | null): Cell | null => (c && (c.bits.length > 0 || c.refs.length > 0) ? c : null);

/** Runs a loader; a body that does not follow the TL-B gives null, as the indexer skips it. */
function tryLoad<T>(body: Cell, load: (s: Slice) => T): T | null {
  try {
    return load(body.beginParse());
  } catch {
    return null;
  }
}

export const loadJettonTransferBody = (body: Cell): JettonTransferFields | null =>
  tryLoad(body, (s) => {
    const b = loadJettonTransfer(s);
    return { ...b, destination: std(b.destination), responseDestination: std(b.responseDestination), forwardPayload: nonEmpty(b.forwardPayload) };
  });

export const loadJettonBurnBody = (body: Cell): JettonBurnFields | null =>
  tryLoad(body, (s) => {
    const b = loadJettonBurn(s);
    return { ...b, responseDestination: std(b.responseDestination) };
  });

export const loadNftTransferBody = (body: Cell): NftTransferFields | null =>
  tryLoad(body, (s) => {
    const b = loadNftTransfer(s);
    return { ...b, newOwner: std(b.newOwner), responseDestination: std(b.responseDestination), forwardPayload: nonEmpty(b.forwardPayload) };
  });

/** A payload as v3 prints it (base64 BoC) and its decoded form. */
export function payloadToV3(cell: Cell | null): { boc: string | null; decoded: Record<string, unknown> | null } {
  if (!cell) return { boc: null, decoded: null };
  return { boc: bocB64(cell), decoded: decodeBody(cell) };
}
