/** A signed v4 transfer from a genesis wallet, as a client builds it. */
import { Address, beginCell, external, internal, SendMode, storeMessage } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import type { KeyedWallet } from '../../src/sources/localnet/index.js';

export function v4Transfer(w: KeyedWallet | { contract: WalletContractV4; keyPair: { secretKey: Buffer } }, to: Address, value: bigint, seqno: number): Buffer {
  const wallet = w.contract as WalletContractV4;
  const body = wallet.createTransfer({
    seqno,
    secretKey: w.keyPair.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to, value, bounce: false })],
  });
  return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc();
}
