/**
 * Genesis: four standard wallets whose mnemonics follow from the seed, funded by the faucet, deployed by
 * their own signed external transfers, plus a few transfers between them (one with a text comment).
 * Everything runs at fixed times from GENESIS_TIME, so the same seed gives the same hashes on every start.
 */
import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { beginCell, external, internal, SendMode, storeMessage, type Cell, type MessageRelaxed } from '@ton/core';
import { mnemonicToPrivateKey, mnemonicValidate, mnemonicWordList, type KeyPair } from '@ton/crypto';
import { WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { GenesisWallet } from '../api/localnet.js';
import { GENESIS_TIME, type Chain } from './chain.js';

export interface KeyedWallet extends WalletKeys {
  contract: WalletContractV4 | WalletContractV5R1;
}

const SPECS: { name: string; version: GenesisWallet['version'] }[] = [
  { name: 'alice', version: 'v4r2' },
  { name: 'bob', version: 'v4r2' },
  { name: 'carol', version: 'v5r1' },
  { name: 'dave', version: 'v5r1' },
];

const TON = 1_000_000_000n;
const FUNDING = 10_000n * TON;

/** tonlib's is_basic_seed on node's native pbkdf2: a cheap filter before the library's own check. */
function looksBasic(words: string[]): boolean {
  const entropy = createHmac('sha512', words.join(' ')).update('').digest();
  return pbkdf2Sync(entropy, 'TON seed version', Math.floor(100_000 / 256), 64, 'sha512')[0] === 0;
}

/**
 * A 24-word TON mnemonic from the seed: word i of attempt n is uint16 i of sha512("ton-localnet/mnemonic" | seed |
 * wallet | n) modulo 2048; the first attempt that mnemonicValidate accepts wins.
 */
export async function deriveMnemonic(seed: string, wallet: number): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const h = createHash('sha512').update(`ton-localnet/mnemonic|${seed}|${wallet}|${attempt}`).digest();
    const words = Array.from({ length: 24 }, (_, i) => mnemonicWordList[h.readUInt16BE(2 * i) % mnemonicWordList.length]!);
    if (looksBasic(words) && (await mnemonicValidate(words))) return words;
  }
}

export interface WalletKeys {
  name: string;
  version: GenesisWallet['version'];
  mnemonic: string[];
  keyPair: KeyPair;
}

/** Mnemonics and keys of the genesis wallets; independent of the chain, so it can run while sandbox starts. */
export async function deriveWalletKeys(seed: string): Promise<WalletKeys[]> {
  return Promise.all(
    SPECS.map(async (spec, i) => {
      const mnemonic = await deriveMnemonic(seed, i);
      return { ...spec, mnemonic, keyPair: await mnemonicToPrivateKey(mnemonic) };
    }),
  );
}

/** The wallet contracts; v5r1 ids carry the chain's global id (config param 19). */
export function genesisWallets(keys: WalletKeys[], globalId: number): KeyedWallet[] {
  return keys.map((k) => ({
    ...k,
    contract:
      k.version === 'v4r2'
        ? WalletContractV4.create({ workchain: 0, publicKey: k.keyPair.publicKey })
        : WalletContractV5R1.create({ publicKey: k.keyPair.publicKey, walletId: { networkGlobalId: globalId } }),
  }));
}

/** A signed external transfer from `w`, with its StateInit on the first (seqno 0) message. */
export function signedTransfer(w: KeyedWallet, seqno: number, messages: MessageRelaxed[], validUntil: number): Cell {
  const args = {
    seqno,
    secretKey: w.keyPair.secretKey,
    messages,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    timeout: validUntil,
  };
  const body = w.contract instanceof WalletContractV4 ? w.contract.createTransfer(args) : w.contract.createTransfer(args);
  const init = seqno === 0 ? w.contract.init : undefined;
  return beginCell().store(storeMessage(external({ to: w.contract.address, init, body }))).endCell();
}

/** Runs the genesis history on a chain that holds only its zerostate, sealing one block per step. */
export async function runGenesis(chain: Chain, wallets: KeyedWallet[]): Promise<void> {
  const at = (step: number) => GENESIS_TIME + 5 * step;
  const [alice, bob, carol, dave] = wallets as [KeyedWallet, KeyedWallet, KeyedWallet, KeyedWallet];
  const block = (step: number, messages: () => Cell[]) =>
    chain.enqueue(async () => {
      chain.setOpenUtime(at(step));
      for (const m of messages()) await chain.execute(m);
      chain.seal();
    });

  // 1: the faucet funds every wallet (each still uninitialised)
  for (const w of wallets) {
    chain.setOpenUtime(at(1));
    await chain.faucet(w.contract.address, FUNDING, { seal: false });
  }
  await chain.enqueue(() => chain.seal());

  // 2: each wallet deploys itself with its first signed transfer; non-bounceable, as the next one is not deployed yet
  const pay = (to: KeyedWallet, tons: bigint, body?: string) =>
    internal({ to: to.contract.address, value: tons, bounce: false, ...(body !== undefined ? { body } : {}) });
  await block(2, () => [
    signedTransfer(alice, 0, [pay(bob, 5n * TON, 'Welcome to the local chain')], at(2) + 60),
    signedTransfer(bob, 0, [pay(carol, 2n * TON)], at(2) + 60),
    signedTransfer(carol, 0, [pay(dave, 3n * TON)], at(2) + 60),
    signedTransfer(dave, 0, [pay(alice, 1_500_000_000n)], at(2) + 60),
  ]);

  // 3: a second round between deployed wallets, bounceable now
  await block(3, () => [
    signedTransfer(alice, 1, [internal({ to: carol.contract.address, value: TON / 4n, bounce: true })], at(3) + 60),
    signedTransfer(carol, 1, [internal({ to: bob.contract.address, value: TON, bounce: true, body: 'thanks, bob' })], at(3) + 60),
  ]);
}
