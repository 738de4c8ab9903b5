/** TEP-62/66 bodies: round trips, and every recorded mainnet NFT body (fixtures.ts) reads and writes back. */
import { Address, beginCell, Cell, comment } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  loadNftDeployItem,
  loadNftOwnershipAssigned,
  loadNftQuery,
  loadNftReportRoyaltyParams,
  loadNftReportStaticData,
  loadNftTransfer,
  NFT_OP,
  storeNftDeployItem,
  storeNftOwnershipAssigned,
  storeNftQuery,
  storeNftReportRoyaltyParams,
  storeNftReportStaticData,
  storeNftTransfer,
} from '../../../src/model/tlb/nft.js';
import { loadTeleitemBidInfo } from '../../../src/model/tlb/teleitem.js';
import { recorded, recordedBodies, roundTrip } from './fixtures.js';
import { withoutShared } from '../../helpers/shared.js';

const noShared = withoutShared('the recorded mainnet NFT bodies');

const A = Address.parse('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');
const B = Address.parse('0:' + 'cd'.repeat(32));

describe('NFT bodies (TEP-62, TEP-66)', () => {
  it('round-trip', () => {
    roundTrip(loadNftTransfer, storeNftTransfer, {
      queryId: 1n,
      newOwner: A,
      responseDestination: B,
      customPayload: null,
      forwardAmount: 1n,
      forwardPayload: comment('gift'),
    });
    roundTrip(loadNftTransfer, storeNftTransfer, { queryId: 0n, newOwner: B, responseDestination: null, customPayload: Cell.EMPTY, forwardAmount: 0n, forwardPayload: Cell.EMPTY });
    roundTrip(loadNftOwnershipAssigned, storeNftOwnershipAssigned, { queryId: 2n, prevOwner: A, forwardPayload: null });
    roundTrip(loadNftQuery, storeNftQuery, { type: 'get_static_data', queryId: 3n });
    roundTrip(loadNftQuery, storeNftQuery, { type: 'get_royalty_params', queryId: 4n });
    roundTrip(loadNftReportStaticData, storeNftReportStaticData, { queryId: 5n, index: 2n ** 200n, collection: B });
    roundTrip(loadNftReportRoyaltyParams, storeNftReportRoyaltyParams, { queryId: 6n, numerator: 5, denominator: 100, destination: A });
    roundTrip(loadNftDeployItem, storeNftDeployItem, { queryId: 7n, itemIndex: 9n, amount: 50_000_000n, owner: A, individualContent: comment('1.json') });
  });

  it.skipIf(noShared)('reads and writes back the recorded mainnet bodies', () => {
    recorded(NFT_OP.transfer, loadNftTransfer, storeNftTransfer, 3);
    recorded(NFT_OP.ownershipAssigned, loadNftOwnershipAssigned, storeNftOwnershipAssigned, 3);
  });

  it.skipIf(noShared)("a Fragment sale's ownership_assigned carries the Telemint bid info", () => {
    // fragment-buyNftTraceResponse: the item tells its buyer, with the winning bid in the forward payload
    const bids = recordedBodies(NFT_OP.ownershipAssigned)
      .map((c) => loadTeleitemBidInfo(loadNftOwnershipAssigned(c.beginParse()).forwardPayload))
      .filter((b) => b !== null);
    expect(bids.length).toBeGreaterThan(0);
    expect(bids[0]!.bid).toBeGreaterThan(0n);
  });

  it('a body with another op does not read', () => {
    expect(() => loadNftQuery(beginCell().storeUint(NFT_OP.transfer, 32).storeUint(0, 64).endCell().beginParse())).toThrow(/not an NFT query/);
  });
});
