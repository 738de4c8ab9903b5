/** TEP-74 bodies: round trips, and every recorded mainnet jetton body (fixtures.ts) reads and writes back. */
import { Address, beginCell, Cell, comment } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { COMMON_OP, loadExcesses, storeExcesses } from '../../../src/model/tlb/common.js';
import {
  JETTON_OP,
  loadJettonBurn,
  loadJettonBurnNotification,
  loadJettonInternalTransfer,
  loadJettonMint,
  loadJettonTransfer,
  loadJettonTransferNotification,
  loadProvideWalletAddress,
  loadTakeWalletAddress,
  preloadInternalTransferAmount,
  storeJettonBurn,
  storeJettonBurnNotification,
  storeJettonInternalTransfer,
  storeJettonMint,
  storeJettonTransfer,
  storeJettonTransferNotification,
  storeProvideWalletAddress,
  storeTakeWalletAddress,
} from '../../../src/model/tlb/jetton.js';
import { recorded, recordedBodies, roundTrip } from './fixtures.js';
import { withoutShared } from '../../helpers/shared.js';

const noShared = withoutShared('the recorded mainnet jetton bodies');

const A = Address.parse('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');
const B = Address.parse('0:' + 'ab'.repeat(32));

describe('jetton bodies (TEP-74)', () => {
  it('round-trip', () => {
    roundTrip(loadJettonTransfer, storeJettonTransfer, {
      queryId: 7n,
      amount: 10n ** 18n,
      destination: A,
      responseDestination: null,
      customPayload: null,
      forwardTonAmount: 1n,
      forwardPayload: comment('hi'),
    });
    roundTrip(loadJettonTransfer, storeJettonTransfer, {
      queryId: 0n,
      amount: 1n,
      destination: B,
      responseDestination: A,
      customPayload: Cell.EMPTY,
      forwardTonAmount: 0n,
      forwardPayload: Cell.EMPTY,
    });
    roundTrip(loadJettonInternalTransfer, storeJettonInternalTransfer, {
      queryId: 1n,
      amount: 5n,
      from: A,
      responseAddress: B,
      forwardTonAmount: 3n,
      forwardPayload: null,
    });
    roundTrip(loadJettonTransferNotification, storeJettonTransferNotification, { queryId: 2n, amount: 9n, sender: B, forwardPayload: comment('x') });
    roundTrip(loadJettonBurn, storeJettonBurn, { queryId: 3n, amount: 4n, responseDestination: A, customPayload: null });
    roundTrip(loadJettonBurnNotification, storeJettonBurnNotification, { queryId: 3n, amount: 4n, sender: A, responseDestination: null });
    roundTrip(loadProvideWalletAddress, storeProvideWalletAddress, { queryId: 5n, ownerAddress: A, includeAddress: true });
    roundTrip(loadTakeWalletAddress, storeTakeWalletAddress, { queryId: 5n, walletAddress: B, ownerAddress: beginCell().storeAddress(A).endCell() });
    roundTrip(loadJettonMint, storeJettonMint, { type: 'mint', queryId: 6n, toAddress: A, tonAmount: 50n, masterMsg: comment('m') });
    roundTrip(loadJettonMint, storeJettonMint, { type: 'minter_mint', queryId: 6n, toAddress: B, tonAmount: 50n, masterMsg: comment('m') });
    roundTrip(loadExcesses, storeExcesses, { queryId: 123n });
  });

  it('the forward payload missing altogether reads as null and writes back missing', () => {
    const body = beginCell().storeUint(JETTON_OP.internalTransfer, 32).storeUint(0, 64).storeCoins(1).storeAddress(A).storeAddress(null).storeCoins(0).endCell();
    const x = loadJettonInternalTransfer(body.beginParse());
    expect(x.forwardPayload).toBeNull();
    expect(beginCell().store(storeJettonInternalTransfer(x)).endCell().hash()).toEqual(body.hash());
  });

  it('a body with another op does not read', () => {
    expect(() => loadJettonBurn(comment('no').beginParse())).toThrow(/not burn/);
  });

  it.skipIf(noShared)('reads and writes back the recorded mainnet bodies', () => {
    recorded(JETTON_OP.transfer, loadJettonTransfer, storeJettonTransfer, 10);
    recorded(JETTON_OP.internalTransfer, loadJettonInternalTransfer, storeJettonInternalTransfer, 10);
    recorded(JETTON_OP.transferNotification, loadJettonTransferNotification, storeJettonTransferNotification, 10);
    recorded(JETTON_OP.burn, loadJettonBurn, storeJettonBurn, 2);
    recorded(JETTON_OP.burnNotification, loadJettonBurnNotification, storeJettonBurnNotification, 2);
    recorded(COMMON_OP.excesses, loadExcesses, storeExcesses, 10);
  });

  it.skipIf(noShared)('a recorded USDt transfer reads field by field', () => {
    // usdtTransferTraceResponse: the wallet's jetton_transfer of 0.1 USDt
    const body = recordedBodies(JETTON_OP.transfer).map((c) => loadJettonTransfer(c.beginParse()));
    expect(body.every((b) => b.amount > 0n && Address.isAddress(b.destination))).toBe(true);
    const internal = recordedBodies(JETTON_OP.internalTransfer)[0]!;
    expect(preloadInternalTransferAmount(internal)).toBe(loadJettonInternalTransfer(internal.beginParse()).amount);
  });
});
