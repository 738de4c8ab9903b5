/**
 * The genesis tokens on a real local chain: the LGC jetton minted, moved and burnt, the NFT collection with
 * item 0 passed to dave, every token step a successful trace; GET /localnet/tokens and v2 getTokenData
 * (v2.md §7) over a running gateway for all four contract types.
 */
import { Address, beginCell, Cell, contractAddress, internal, type Message } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalnetTokens } from '../../../src/api/localnet.js';
import type { StackArg, TokenData } from '../../../src/api/v2.js';
import { jettonWalletCode, jettonWalletData, nftItemCode, Op } from '../../../src/sources/localnet/chain/contracts/index.js';
import { genesisTokens, signedTransfer, type GenesisTokens } from '../../../src/sources/localnet/chain/genesis.js';
import { LocalChain, type TxRecord } from '../../../src/sources/localnet/index.js';
import { startTestGateway } from '../../helpers/gateway.js';
import type { Gateway } from '../../../src/gateway.js';

const LGC = 1_000_000_000n;

const opOf = (m: Message | null | undefined): number | undefined => {
  const s = m?.body.beginParse();
  return s && s.remainingBits >= 32 ? s.preloadUint(32) : undefined;
};

describe('genesis tokens on LocalChain', () => {
  let chain: LocalChain;
  let tokens: GenesisTokens;
  let names: Record<string, Address>;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'genesis-tokens', blockInterval: 0 });
    tokens = genesisTokens(chain.keyedWallets());
    names = Object.fromEntries(chain.keyedWallets().map((w) => [w.name, w.contract.address]));
  }, 120_000);
  afterAll(() => chain?.close());

  /** Runs a get-method through the v2 API: numbers as bigint, cells and slices as cells. */
  async function run(address: Address, method: string, stack: StackArg[] = []): Promise<(bigint | Cell)[]> {
    const r = await chain.v2.runGetMethodStd({ address, method, stack });
    expect(r.exit_code).toBe(0);
    return r.stack.map((e) => {
      if (e['@type'] === 'tvm.stackEntryNumber') return BigInt(e.number.number);
      if (e['@type'] === 'tvm.stackEntryCell') return Cell.fromBase64(e.cell.bytes);
      if (e['@type'] === 'tvm.stackEntrySlice') return Cell.fromBase64(e.slice.bytes);
      throw new Error(`unexpected stack entry ${e['@type']}`);
    });
  }
  const addressIn = (c: bigint | Cell | undefined): Address => (c as Cell).beginParse().loadAddress();

  const balanceOf = async (wallet: Address): Promise<bigint> => (await run(wallet, 'get_wallet_data'))[0] as bigint;

  it('every transaction of the token steps succeeds', () => {
    const tokenTxs: TxRecord[] = chain.store.sealedTransactions().filter((t) => t.mcSeqno !== undefined && t.mcSeqno >= 4);
    expect(tokenTxs.length).toBeGreaterThan(20);
    for (const t of tokenTxs) {
      const d = t.tx.description;
      expect(d.type).toBe('generic');
      if (d.type !== 'generic') continue;
      expect({ tx: t.hash, success: d.computePhase.type === 'vm' && d.computePhase.success, aborted: d.aborted }).toEqual({
        tx: t.hash,
        success: true,
        aborted: false,
      });
    }
  });

  it('jetton balances and total supply follow the mints, the transfer and the burn', async () => {
    const wallet = (name: string) => tokens.jettonWallets.find((w) => w.name === name)!.address;
    expect(await balanceOf(wallet('alice'))).toBe((1_000_000n - 1_500n) * LGC);
    expect(await balanceOf(wallet('bob'))).toBe((250_000n - 10_000n) * LGC);
    expect(await balanceOf(wallet('carol'))).toBe(1_500n * LGC);
    expect((await run(tokens.jettonMaster, 'get_jetton_data'))[0]).toBe(1_240_000n * LGC);
  });

  it('the master computes the same wallet addresses', async () => {
    for (const w of tokens.jettonWallets) {
      const [wallet] = await run(tokens.jettonMaster, 'get_wallet_address', [{ type: 'slice', boc: beginCell().storeAddress(w.owner).endCell().toBoc() }]);
      expect(addressIn(wallet).equals(w.address)).toBe(true);
    }
  });

  it('carol got a transfer_notification with the comment, dave an ownership_assigned', () => {
    const inbound = (to: Address, op: number) =>
      chain.store.accountTransactions(to).filter((t) => opOf(t.tx.inMessage) === op).map((t) => t.tx.inMessage!);
    const [note] = inbound(names.carol!, Op.transferNotification);
    expect(note).toBeDefined();
    const s = note!.body.beginParse();
    s.skip(32 + 64);
    expect(s.loadCoins()).toBe(1_500n * LGC);
    expect(s.loadAddress().equals(names.alice!)).toBe(true);
    expect(s.loadBit()).toBe(true);
    expect(s.loadRef().beginParse().skip(32).loadStringTail()).toBe('LGC for carol');

    const [assigned] = inbound(names.dave!, Op.ownershipAssigned);
    expect(assigned).toBeDefined();
    const a = assigned!.body.beginParse();
    a.skip(32 + 64);
    expect(a.loadAddress().equals(names.alice!)).toBe(true);
    // bob's burn came back to him as excesses from the master
    const excesses = chain.store.accountTransactions(names.bob!).filter((t) => opOf(t.tx.inMessage) === Op.excesses);
    expect(excesses.some((t) => t.tx.inMessage!.info.src instanceof Address && (t.tx.inMessage!.info.src as Address).equals(tokens.jettonMaster))).toBe(true);
  });

  it('NFT items belong to dave (item 0, transferred), bob and carol; the collection has 3 items', async () => {
    const owners = ['dave', 'bob', 'carol'];
    for (const [i, item] of tokens.nftItems.entries()) {
      const [init, index, collection, owner] = await run(item, 'get_nft_data');
      expect([init, index]).toEqual([-1n, BigInt(i)]);
      expect(addressIn(collection).equals(tokens.nftCollection)).toBe(true);
      expect(addressIn(owner).equals(names[owners[i]!]!)).toBe(true);
      const [byIndex] = await run(tokens.nftCollection, 'get_nft_address_by_index', [{ type: 'int', value: BigInt(i) }]);
      expect(addressIn(byIndex).equals(item)).toBe(true);
    }
    expect((await run(tokens.nftCollection, 'get_collection_data'))[0]).toBe(3n);
    const royalty = await run(tokens.nftCollection, 'royalty_params');
    expect(royalty.slice(0, 2)).toEqual([50n, 1000n]);
    expect(addressIn(royalty[2]).equals(names.alice!)).toBe(true);
  });

  it('tokens() describes the same contracts', () => {
    const t = chain.tokens();
    expect(t.jetton.master).toBe(tokens.jettonMaster.toRawString());
    expect(t.jetton).toMatchObject({ name: 'Local Gateway Coin', symbol: 'LGC', decimals: 9 });
    expect(t.jetton.wallets.map((w) => w.owner)).toEqual(['alice', 'bob', 'carol']);
    expect(t.nft_collection.items.map((i) => i.address)).toEqual(tokens.nftItems.map((a) => a.toRawString()));
  });
});

describe('getTokenData and /localnet/tokens over the gateway', () => {
  let gw: Gateway;
  let tokens: LocalnetTokens;
  const fr = (raw: string) => Address.parseRaw(raw).toString();

  beforeAll(async () => {
    gw = await startTestGateway();
    const res = await fetch(`${gw.url}/localnet/tokens`);
    expect(res.status).toBe(200);
    tokens = (await res.json()) as LocalnetTokens;
  }, 120_000);
  afterAll(() => gw?.close());

  const tokenData = async (raw: string): Promise<TokenData> => {
    const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${encodeURIComponent(fr(raw))}`);
    const body = (await res.json()) as { ok: boolean; result: TokenData };
    expect(res.status).toBe(200);
    expect(body.ok).toBe(true);
    return body.result;
  };

  it('/localnet/tokens lists the genesis contracts of the gateway chain', () => {
    expect(tokens).toEqual(gw.chain!.tokens());
    expect(tokens.jetton.wallets).toHaveLength(3);
    expect(tokens.nft_collection.items.map((i) => i.index)).toEqual([0, 1, 2]);
  });

  it('jetton_master', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    expect(await tokenData(tokens.jetton.master)).toEqual({
      '@type': 'ext.tokens.jettonMasterData',
      contract_type: 'jetton_master',
      address: fr(tokens.jetton.master),
      total_supply: (1_240_000n * LGC).toString(),
      mintable: true,
      admin_address: alice.toString(),
      jetton_content: {
        type: 'onchain',
        data: { name: 'Local Gateway Coin', symbol: 'LGC', decimals: '9', description: 'The jetton minted at the genesis of the local chain' },
      },
      jetton_wallet_code: jettonWalletCode.toBoc({ idx: false, crc32: true }).toString('base64'),
    });
  });

  it('jetton_wallet', async () => {
    const carol = tokens.jetton.wallets.find((w) => w.owner === 'carol')!;
    expect(await tokenData(carol.address)).toEqual({
      '@type': 'ext.tokens.jettonWalletData',
      contract_type: 'jetton_wallet',
      address: fr(carol.address),
      balance: (1_500n * LGC).toString(),
      owner: fr(carol.owner_address),
      jetton: fr(tokens.jetton.master),
      jetton_wallet_code: jettonWalletCode.toBoc({ idx: false, crc32: true }).toString('base64'),
    });
  });

  it('nft_collection', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    expect(await tokenData(tokens.nft_collection.address)).toEqual({
      '@type': 'ext.tokens.nftCollectionData',
      contract_type: 'nft_collection',
      address: fr(tokens.nft_collection.address),
      next_item_index: '3',
      owner_address: alice.toString(),
      collection_content: { type: 'onchain', data: { name: 'Local Gateway Art', description: 'Pictures minted at the genesis of the local chain' } },
    });
  });

  it('nft_item (item 0, now dave\'s)', async () => {
    const dave = gw.chain!.keyedWallets()[3]!.contract.address;
    const item = tokens.nft_collection.items[0]!;
    expect(await tokenData(item.address)).toEqual({
      '@type': 'ext.tokens.nftItemData',
      contract_type: 'nft_item',
      address: fr(item.address),
      init: true,
      index: '0',
      collection_address: fr(tokens.nft_collection.address),
      owner_address: dave.toString(),
      content: { type: 'onchain', data: { name: 'Local Gateway Art #0', description: 'Item 0 of Local Gateway Art' } },
    });
  });

  it('a counterfeit jetton wallet or NFT item is refused: 409 when its master or collection disowns it', async () => {
    const alice = gw.chain!.keyedWallets()[0]!;
    const master = Address.parseRaw(tokens.jetton.master);
    const collection = Address.parseRaw(tokens.nft_collection.address);
    // a jetton wallet whose data names another wallet code, and an item initialised in its StateInit
    const fakeWallet = { code: jettonWalletCode, data: jettonWalletData({ balance: 10n ** 18n, owner: alice.contract.address, master, walletCode: nftItemCode }) };
    const fakeItem = {
      code: nftItemCode,
      data: beginCell().storeUint(0, 64).storeAddress(collection).storeAddress(alice.contract.address).storeRef(Cell.EMPTY).endCell(),
    };
    const { seqno } = await gw.chain!.v2.getWalletInformation({ address: alice.contract.address });
    const deploy = (init: { code: Cell; data: Cell }) => internal({ to: contractAddress(0, init), value: LGC / 10n, bounce: false, init });
    const boc = signedTransfer(alice, seqno!, [deploy(fakeWallet), deploy(fakeItem)], Math.floor(Date.now() / 1000) + 60);
    await gw.chain!.v2.sendBoc({ boc: boc.toBoc() });

    for (const [init, error] of [
      [fakeWallet, 'Verification on master failed'],
      [fakeItem, 'Verification on collection failed'],
    ] as const) {
      const address = contractAddress(0, init);
      expect((await gw.chain!.v2.getAddressState({ address })) as string).toBe('active');
      const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${address.toString()}`);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ ok: false, error, code: 409 });
    }
  });

  it('a wallet is still not a token: 409', async () => {
    const alice = gw.chain!.keyedWallets()[0]!.contract.address;
    const res = await fetch(`${gw.url}/api/v2/getTokenData?address=${alice.toString()}`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ ok: false, error: `Smart contract ${alice.toString()} is not Jetton or NFT`, code: 409 });
  });
});
