/**
 * An action as the reference's emulator prints it (the recorded emulateTrace answers in
 * ../shared/fixtures/mainnet-emulate): its classifier reads the emulated trace from memory, not back from the
 * index's database, so two members differ from what /traces prints for the same action. An NFT item's index is the
 * one the item's state answers (`get_nft_data`), where the database keeps a double and the classifier prints that
 * rounding; and a transfer without extra currencies has null for them, where the database's empty map prints `{}`.
 */
import type { ClassifiedAction, ContractInfo } from '../v3/actions/index.js';

const EXTRA_CURRENCY_KEYS = ['extra_currencies', 'value_extra_currencies'];

const isEmptyMap = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

/** `a` with its details as the emulator prints them; `info` answers for the accounts as the classifier's did. */
export async function emulatedAction(a: ClassifiedAction, info: ContractInfo): Promise<ClassifiedAction> {
  const details = { ...a.details };
  for (const k of EXTRA_CURRENCY_KEYS) if (isEmptyMap(details[k])) details[k] = null;
  if (typeof details.nft_item === 'string' && typeof details.nft_item_index === 'string') {
    const item = await info.nftItem(details.nft_item);
    if (item) details.nft_item_index = item.index;
  }
  return { ...a, details };
}
