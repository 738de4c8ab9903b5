/**
 * The local validator set and the elector, as the real network holds them (v3-more-routes.md §4):
 * - config param 34 is the current set: the one local validator (the key the chain signs its blocks with), cycle
 *   [pastElection, pastElection + validators_elected_for); param 32 the previous cycle with the same validator;
 *   param 36 (a next set) is absent, as between elections.
 * - the elector (contracts/elector.fc) sits in the zerostate at param 1's address, as the network's does (that
 *   address is no StateInit hash): its data holds the past election of the current set (the validator's stake
 *   frozen, matched to param 34 by the set's hash), the credit of the previous cycle's stake (unfrozen once
 *   stake_held_for passed), and an open election for the next cycle (elect_at in the future at genesis).
 * - genesis then has the validator's masterchain wallet (genesis-validator.ts), funded by the faucet, stake for
 *   the open election (new_stake, answered new_stake_ok) and take its credit back (recover_stake).
 * Times follow from GENESIS_TIME and param 15. Nothing conducts the election afterwards: the elector runs no
 * tick-tock here, so the election stays open and param 34 stays the same set (docs/local-chain.md).
 */
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, Dictionary, internal, type Builder, type DictionaryValue } from '@ton/core';
import { keyPairFromSeed, sign, type KeyPair } from '@ton/crypto';
import { configParse15, configParse17 } from '@ton/ton';
import { compiled } from './contracts/index.js';
import type { Chain } from './chain.js';
import type { KeyedWallet } from './genesis.js';
import { validatorWallet, validatorWalletKeys } from './genesis-validator.js';

const TON = 1_000_000_000n;

export const GENESIS_ELECTOR = {
  /** the current set's election (its id is its cycle start) was this many seconds before GENESIS_TIME */
  pastElectionAge: 40_000,
  /** the validator's stake frozen in that election */
  frozenStake: 340_000n * TON,
  /** the previous cycle's stake, unfrozen into a credit before genesis */
  credit: 330_500n * TON,
  /** nobody's grams the elector holds besides */
  grams: TON,
  /** what the faucet gives the validator's wallet, and the stake it makes (the message carries 1 TON more for the answer) */
  walletFunding: 360_000n * TON,
  stake: 350_000n * TON,
  /** 3.0, the sandbox config's max_stake_factor (param 17) */
  maxFactor: 3 * 65536,
  /** a one-validator set has all the weight: the elector's weight is stake << 60 / total stake */
  weight: 1n << 60n,
} as const;

/** The key the local validator signs blocks with (v2 getMasterchainBlockSignatures) and stakes with. */
export function validatorKeys(seed: string): KeyPair {
  return keyPairFromSeed(createHash('sha256').update(`ton-localnet/validator/${seed}`).digest());
}

/** The ADNL address of an ed25519 key: sha256 of its TL form (pub.ed25519, id 0x4813b4c6 little-endian, then the key). */
export function adnlAddress(publicKey: Buffer): Buffer {
  return createHash('sha256').update(Buffer.from([0xc6, 0xb4, 0x13, 0x48])).update(publicKey).digest();
}

const inline: DictionaryValue<Builder> = {
  serialize: (src, b) => b.storeBuilder(src),
  parse: () => {
    throw new Error('write only');
  },
};

/** validators_ext#12 with one validator_addr#73 (ed25519_pubkey#8e81278a). */
function validatorSet(since: number, until: number, publicKey: Buffer): Cell {
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), inline);
  list.set(
    0,
    beginCell().storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(publicKey).storeUint(GENESIS_ELECTOR.weight, 64).storeBuffer(adnlAddress(publicKey)),
  );
  return beginCell().storeUint(0x12, 8).storeUint(since, 32).storeUint(until, 32).storeUint(1, 16).storeUint(1, 16).storeUint(GENESIS_ELECTOR.weight, 64).storeDict(list).endCell();
}

/** The cycle times: the past election (the current set's start) and the open one (the next set's start). */
function times(config: Dictionary<number, Cell>, genesisTime: number) {
  const p15 = configParse15(config.get(15)!.beginParse());
  const pastElection = genesisTime - GENESIS_ELECTOR.pastElectionAge;
  const openElection = pastElection + p15.validatorsElectedFor;
  return { p15, pastElection, openElection, electClose: openElection - p15.electorsEndBefore };
}

/** The config with the local validator set: params 34 and 32 set, 36 removed (elections are between sets). */
export function withLocalValidator(config: Dictionary<number, Cell>, seed: string, genesisTime: number): void {
  const { p15, pastElection, openElection } = times(config, genesisTime);
  const key = validatorKeys(seed).publicKey;
  config.set(34, validatorSet(pastElection, openElection, key));
  config.set(32, validatorSet(pastElection - p15.validatorsElectedFor, pastElection, key));
  config.delete(36);
}

const uint256 = (b: Buffer): bigint => BigInt('0x' + b.toString('hex'));

/** The elector's account at genesis: its code, its data (see contracts/elector.fc) and its balance (what the data owes). */
export function electorGenesisState(config: Dictionary<number, Cell>, seed: string, genesisTime: number, globalId: number): { address: Address; code: Cell; data: Cell; balance: bigint } {
  const { p15, pastElection, openElection, electClose } = times(config, genesisTime);
  const p17 = configParse17(config.get(17)!.beginParse());
  const key = validatorKeys(seed).publicKey;
  const holder = uint256(validatorWallet(seed, globalId).address.hash);
  const E = GENESIS_ELECTOR;

  const open = beginCell().storeUint(openElection, 32).storeUint(electClose, 32).storeCoins(p17.minStake).storeCoins(0).storeDict(null).storeBit(false).storeBit(false).endCell();
  const credits = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.BigVarUint(4));
  credits.set(holder, E.credit);
  const frozen = Dictionary.empty(Dictionary.Keys.BigUint(256), inline);
  frozen.set(uint256(key), beginCell().storeUint(holder, 256).storeUint(E.weight, 64).storeCoins(E.frozenStake).storeBit(false));
  const vsetHash = uint256(config.get(34)!.hash());
  const past = Dictionary.empty(Dictionary.Keys.Uint(32), inline);
  past.set(
    pastElection,
    beginCell()
      .storeUint(openElection + p15.stakeHeldFor, 32)
      .storeUint(p15.stakeHeldFor, 32)
      .storeUint(vsetHash, 256)
      .storeDict(frozen)
      .storeCoins(E.frozenStake)
      .storeCoins(0)
      .storeDict(null),
  );
  const data = beginCell().storeMaybeRef(open).storeDict(credits).storeDict(past).storeCoins(E.grams).storeUint(pastElection, 32).storeUint(vsetHash, 256).endCell();
  const elector = new Address(-1, config.get(1)!.beginParse().loadBuffer(32));
  return { address: elector, code: Cell.fromBase64(compiled.contracts.elector.boc), data, balance: E.frozenStake + E.credit + E.grams };
}

/**
 * The config contract's account at genesis (contracts/config.fc), at config param 0's address as on the network:
 * its data is the configuration the chain runs with (the dictionary as a ref, seqno 0, a public key following
 * from the seed, no proposals). It takes no changes, so its data stays the chain's configuration.
 */
export function configGenesisState(config: Dictionary<number, Cell>, seed: string): { address: Address; code: Cell; data: Cell; balance: bigint } {
  const key = keyPairFromSeed(createHash('sha256').update(`ton-localnet/config/${seed}`).digest()).publicKey;
  const data = beginCell().storeRef(beginCell().storeDictDirect(config).endCell()).storeUint(0, 32).storeBuffer(key).storeDict(null).endCell();
  const address = new Address(-1, config.get(0)!.beginParse().loadBuffer(32));
  return { address, code: Cell.fromBase64(compiled.contracts.config.boc), data, balance: TON };
}

const OP = { newStake: 0x4e73744b, recoverStake: 0x47657424, stakeSignature: 0x654c5074 } as const;

/** new_stake for `electionId` from `sender` (a masterchain address), signed by `keys` over the elector's payload. */
export function newStakeBody(p: { keys: KeyPair; sender: Address; electionId: number; queryId: bigint; maxFactor?: number }): Cell {
  const adnl = adnlAddress(p.keys.publicKey);
  const maxFactor = p.maxFactor ?? GENESIS_ELECTOR.maxFactor;
  const signed = beginCell().storeUint(OP.stakeSignature, 32).storeUint(p.electionId, 32).storeUint(maxFactor, 32).storeBuffer(p.sender.hash).storeBuffer(adnl).endCell();
  const signature = sign(signed.beginParse().loadBuffer(76), p.keys.secretKey);
  return beginCell()
    .storeUint(OP.newStake, 32)
    .storeUint(p.queryId, 64)
    .storeBuffer(p.keys.publicKey)
    .storeUint(p.electionId, 32)
    .storeUint(maxFactor, 32)
    .storeBuffer(adnl)
    .storeRef(beginCell().storeBuffer(signature))
    .endCell();
}

export const recoverStakeBody = (queryId: bigint): Cell => beginCell().storeUint(OP.recoverStake, 32).storeUint(queryId, 64).endCell();

type Block = (step: number, messages: () => Cell[]) => Promise<unknown>;
type Signed = (w: Pick<KeyedWallet, 'keyPair' | 'contract'>, seqno: number, messages: ReturnType<typeof internal>[], validUntil: number) => Cell;

/**
 * Two blocks: at `steps[0]` the faucet funds the validator's wallet and the wallet (deploying itself) stakes for
 * the open election; at `steps[1]` it recovers the previous cycle's credit.
 */
export async function runElectorGenesis(
  chain: Pick<Chain, 'faucet' | 'setOpenUtime' | 'globalId' | 'seed' | 'configParam'>,
  block: Block,
  at: (step: number) => number,
  sign: Signed,
  steps: [number, number],
): Promise<void> {
  const { seed, globalId } = chain;
  const wallet = { keyPair: validatorWalletKeys(seed), contract: validatorWallet(seed, globalId) };
  const elector = new Address(-1, chain.configParam(1)!.beginParse().loadBuffer(32));
  const electionId = chain.configParam(34)!.beginParse().skip(8 + 32).loadUint(32);
  const [stake, recover] = steps;
  chain.setOpenUtime(at(stake));
  await chain.faucet(wallet.contract.address, GENESIS_ELECTOR.walletFunding, { seal: false });
  await block(stake, () => [
    sign(
      wallet,
      0,
      [
        internal({
          to: elector,
          value: GENESIS_ELECTOR.stake + TON,
          bounce: true,
          body: newStakeBody({ keys: validatorKeys(seed), sender: wallet.contract.address, electionId, queryId: BigInt(at(stake)) }),
        }),
      ],
      at(stake) + 60,
    ),
  ]);
  await block(recover, () => [sign(wallet, 1, [internal({ to: elector, value: TON, bounce: true, body: recoverStakeBody(BigInt(at(recover))) })], at(recover) + 60)]);
}
