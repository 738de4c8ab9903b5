/**
 * Genesis, the nominator pool part: the local validator's masterchain wallet (genesis-validator.ts; funded and
 * deployed by the elector steps, genesis-elector.ts) deploys a nominator pool (contracts/nominator-pool.fc) in the masterchain and
 * deposits its own stake; carol and dave join as nominators with a "d" comment; dave withdraws with "w" (the
 * pool is idle, so his stake comes back at once) and deposits again, less. No stake goes to the elector here, so
 * the pool holds no reward.
 */
import { contractAddress, internal, type Address, type Cell } from '@ton/core';
import { commentPayload, nominatorPoolInit, PoolOp, poolValidatorBody } from './contracts/index.js';
import type { Chain } from './chain.js';
import type { KeyedWallet } from './genesis.js';
import { validatorWallet, validatorWalletKeys } from './genesis-validator.js';

const TON = 1_000_000_000n;

export const GENESIS_POOL = {
  /** 30% of a reward to the validator */
  validatorRewardShare: 3_000,
  maxNominators: 40,
  minValidatorStake: 100n * TON,
  minNominatorStake: 10n * TON,
  /** what the pool keeps of every deposit message for its gas (nominator-pool.fc processing_fee) */
  processingFee: TON,
  validatorStake: 500n * TON,
  carolStake: 200n * TON,
  daveStake: 100n * TON,
  /** dave's deposit after his withdrawal */
  daveAgain: 50n * TON,
} as const;

function poolInit(seed: string, globalId: number) {
  const p = GENESIS_POOL;
  return nominatorPoolInit({
    validator: validatorWallet(seed, globalId).address,
    validatorRewardShare: p.validatorRewardShare,
    maxNominators: p.maxNominators,
    minValidatorStake: p.minValidatorStake,
    minNominatorStake: p.minNominatorStake,
  });
}

/** The genesis pool (masterchain) and its validator's wallet; they follow from the seed. */
export function genesisPool(seed: string, globalId: number): { pool: Address; validator: Address } {
  return { pool: contractAddress(-1, poolInit(seed, globalId)), validator: validatorWallet(seed, globalId).address };
}

type Block = (step: number, messages: () => Cell[]) => Promise<unknown>;
type Signed = (w: Pick<KeyedWallet, 'keyPair' | 'contract'>, seqno: number, messages: ReturnType<typeof internal>[], validUntil: number) => Cell;

/** Four blocks from `first` on; the validator's, carol's and dave's next seqnos are passed in. */
export async function runPoolGenesis(
  chain: Chain,
  block: Block,
  at: (step: number) => number,
  sign: Signed,
  first: number,
  validatorSeqno: number,
  carol: { wallet: KeyedWallet; seqno: number },
  dave: { wallet: KeyedWallet; seqno: number },
): Promise<void> {
  const p = GENESIS_POOL;
  const init = poolInit(chain.seed, chain.globalId);
  const { pool } = genesisPool(chain.seed, chain.globalId);
  const validator = { keyPair: validatorWalletKeys(chain.seed), contract: validatorWallet(chain.seed, chain.globalId) };
  const deposit = (w: KeyedWallet, seqno: number, stake: bigint, step: number) =>
    sign(w, seqno, [internal({ to: pool, value: stake + p.processingFee, bounce: true, body: commentPayload('d') })], at(step) + 60);

  // the wallet deploys the pool, whose first message is the validator's deposit
  await block(first, () => [
    sign(
      validator,
      validatorSeqno,
      [internal({ to: pool, value: p.validatorStake + p.processingFee, bounce: false, init, body: poolValidatorBody(PoolOp.depositValidator, 1n) })],
      at(first) + 60,
    ),
  ]);
  await block(first + 1, () => [deposit(carol.wallet, carol.seqno, p.carolStake, first + 1), deposit(dave.wallet, dave.seqno, p.daveStake, first + 1)]);
  await block(first + 2, () => [sign(dave.wallet, dave.seqno + 1, [internal({ to: pool, value: TON, bounce: true, body: commentPayload('w') })], at(first + 2) + 60)]);
  await block(first + 3, () => [deposit(dave.wallet, dave.seqno + 2, p.daveAgain, first + 3)]);
}
