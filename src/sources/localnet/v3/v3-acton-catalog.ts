/**
 * The local chain's contract catalog for /api/v3/acton: the token contracts genesis deploys (contracts/, written for
 * this project) and the standard v4r2 and v5r1 wallets, each with its code hash, its getters (named arguments and
 * what they return, decoded by field), its storage layout (the FunC sources' load_data) and the bodies it takes
 * (the TEP-74 / TEP-62 loaders of model/tlb). toncenter's catalog is ton-blockchain/abis; this one is the gateway's
 * own, so its ids say so (`localnet.*`). No I/O: getters are run by the caller.
 */
import { Address, Cell, getMethodId, type Slice } from '@ton/core';
import { createHash } from 'node:crypto';
import type { ActonContract, ActonDirection, ActonGetMethod, ActonParameter, ActonStackValue } from '../../../api/v3/acton.js';
import { rawUpper } from '../../../model/address.js';
import { loadJettonBurn, loadJettonBurnNotification, loadJettonInternalTransfer, loadJettonTransfer, loadProvideWalletAddress } from '../../../model/tlb/jetton.js';
import { loadNftQuery, loadNftTransfer } from '../../../model/tlb/nft.js';
import { WALLET_CODE_HASHES } from '../../../model/wallet.js';
import { jettonMinterCode, jettonWalletCode, nftItemCode, compiled } from '../chain/contracts/index.js';

/** A decoded value as JSON: integers as decimal strings, addresses raw, cells as base64 BoCs. */
export function toJson(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Address) return rawUpper(v);
  if (v instanceof Cell) return v.toBoc().toString('base64');
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [camelToSnake(k), toJson(x)]));
  return v ?? null;
}

const camelToSnake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Reads a getter's result off its stack, first value first. */
export class ResultReader {
  private i = 0;
  constructor(private readonly stack: readonly ActonStackValue[]) {}

  private next(): ActonStackValue {
    const v = this.stack[this.i++];
    if (!v) throw new Error(`stack has ${this.stack.length} values, ${this.i} wanted`);
    return v;
  }

  int(): bigint {
    const v = this.next();
    if (v.type !== 'int') throw new Error(`an int expected at ${this.i - 1}, got ${v.type}`);
    return BigInt(v.value);
  }

  bool(): boolean {
    return this.int() !== 0n;
  }

  cell(): Cell | null {
    const v = this.next();
    if (v.type === 'null') return null;
    if (v.type !== 'cell' && v.type !== 'slice') throw new Error(`a cell expected at ${this.i - 1}, got ${v.type}`);
    return Cell.fromBase64(v.value);
  }

  address(): Address | null {
    const c = this.cell();
    return c ? c.beginParse().loadMaybeAddress() : null;
  }
}

interface Getter {
  name: string;
  parameters: ActonParameter[];
  returns: string;
  decode(r: ResultReader): unknown;
  description?: string;
}

interface BodyType {
  name: string;
  /** the opcode a message body starts with */
  op?: number;
  decode(s: Slice): unknown;
}

export interface CatalogEntry {
  id: string;
  displayName: string;
  codeHash: Buffer;
  getters: Getter[];
  bodies: Partial<Record<ActonDirection, BodyType[]>>;
}

const param = (name: string, type: string): ActonParameter => ({ name, type });

const jettonMinter: CatalogEntry = {
  id: 'localnet.jetton_minter',
  displayName: 'Jetton minter (TEP-74), as genesis deploys it',
  codeHash: jettonMinterCode.hash(),
  getters: [
    {
      name: 'get_jetton_data',
      parameters: [],
      returns: 'JettonData',
      decode: (r) => ({ totalSupply: r.int(), mintable: r.bool(), adminAddress: r.address(), jettonContent: r.cell(), jettonWalletCode: r.cell() }),
    },
    { name: 'get_wallet_address', parameters: [param('owner_address', 'address')], returns: 'address', decode: (r) => r.address() },
  ],
  bodies: {
    storage: [{ name: 'JettonMinterStorage', decode: (s) => ({ totalSupply: s.loadCoins(), adminAddress: s.loadMaybeAddress(), content: s.loadRef(), walletCode: s.loadRef() }) }],
    incoming_messages: [
      { name: 'BurnNotification', op: 0x7bdd97de, decode: loadJettonBurnNotification },
      { name: 'ProvideWalletAddress', op: 0x2c76b973, decode: loadProvideWalletAddress },
    ],
  },
};

const jettonWallet: CatalogEntry = {
  id: 'localnet.jetton_wallet',
  displayName: 'Jetton wallet (TEP-74), as genesis deploys it',
  codeHash: jettonWalletCode.hash(),
  getters: [
    {
      name: 'get_wallet_data',
      parameters: [],
      returns: 'JettonWalletData',
      decode: (r) => ({ balance: r.int(), ownerAddress: r.address(), jettonMasterAddress: r.address(), jettonWalletCode: r.cell() }),
    },
  ],
  bodies: {
    storage: [{ name: 'JettonWalletStorage', decode: (s) => ({ balance: s.loadCoins(), ownerAddress: s.loadAddress(), jettonMasterAddress: s.loadAddress(), walletCode: s.loadRef() }) }],
    incoming_messages: [
      { name: 'JettonTransfer', op: 0x0f8a7ea5, decode: loadJettonTransfer },
      { name: 'JettonInternalTransfer', op: 0x178d4519, decode: loadJettonInternalTransfer },
      { name: 'JettonBurn', op: 0x595f07bc, decode: loadJettonBurn },
    ],
  },
};

const nftCollection: CatalogEntry = {
  id: 'localnet.nft_collection',
  displayName: 'NFT collection (TEP-62, TEP-66), as genesis deploys it',
  codeHash: Cell.fromBase64(compiled.contracts.nftCollection.boc).hash(),
  getters: [
    { name: 'get_collection_data', parameters: [], returns: 'CollectionData', decode: (r) => ({ nextItemIndex: r.int(), collectionContent: r.cell(), ownerAddress: r.address() }) },
    { name: 'get_nft_address_by_index', parameters: [param('index', 'int')], returns: 'address', decode: (r) => r.address() },
    { name: 'royalty_params', parameters: [], returns: 'RoyaltyParams', decode: (r) => ({ numerator: r.int(), denominator: r.int(), destination: r.address() }) },
  ],
  bodies: {
    storage: [
      {
        name: 'NftCollectionStorage',
        decode: (s) => ({ ownerAddress: s.loadAddress(), nextItemIndex: s.loadUintBig(64), content: s.loadRef(), itemCode: s.loadRef(), royaltyParams: s.loadRef() }),
      },
    ],
  },
};

const nftItem: CatalogEntry = {
  id: 'localnet.nft_item',
  displayName: 'NFT item (TEP-62), as genesis deploys it',
  codeHash: nftItemCode.hash(),
  getters: [
    {
      name: 'get_nft_data',
      parameters: [],
      returns: 'NftData',
      decode: (r) => ({ init: r.bool(), index: r.int(), collectionAddress: r.address(), ownerAddress: r.address(), individualContent: r.cell() }),
    },
  ],
  bodies: {
    storage: [
      {
        name: 'NftItemStorage',
        decode: (s) => {
          const index = s.loadUintBig(64);
          const collectionAddress = s.loadAddress();
          // an item is initialised once its collection has written the owner and content
          return s.remainingBits > 0 ? { index, collectionAddress, ownerAddress: s.loadAddress(), content: s.loadRef() } : { index, collectionAddress };
        },
      },
    ],
    incoming_messages: [
      { name: 'NftTransfer', op: 0x5fcc3d14, decode: loadNftTransfer },
      { name: 'GetStaticData', op: 0x2fcb26a2, decode: loadNftQuery },
    ],
  },
};

const walletCode = (type: string): Buffer => Buffer.from([...WALLET_CODE_HASHES].find(([, w]) => w.type === type)![0], 'base64');

const walletGetters: Getter[] = [
  { name: 'seqno', parameters: [], returns: 'uint32', decode: (r) => r.int() },
  { name: 'get_public_key', parameters: [], returns: 'uint256', decode: (r) => r.int() },
  { name: 'get_subwallet_id', parameters: [], returns: 'uint32', decode: (r) => r.int() },
];

const walletV4r2: CatalogEntry = {
  id: 'localnet.wallet_v4r2',
  displayName: 'Wallet v4r2',
  codeHash: walletCode('wallet v4 r2'),
  getters: walletGetters,
  bodies: {
    storage: [{ name: 'WalletV4Storage', decode: (s) => ({ seqno: s.loadUint(32), subwalletId: s.loadUint(32), publicKey: s.loadBuffer(32), plugins: s.loadMaybeRef() }) }],
  },
};

const walletV5r1: CatalogEntry = {
  id: 'localnet.wallet_v5r1',
  displayName: 'Wallet v5r1',
  codeHash: walletCode('wallet v5 r1'),
  getters: [...walletGetters, { name: 'is_signature_allowed', parameters: [], returns: 'bool', decode: (r) => r.bool() }],
  bodies: {
    storage: [
      {
        name: 'WalletV5Storage',
        decode: (s) => ({ isSignatureAllowed: s.loadBit(), seqno: s.loadUint(32), walletId: s.loadUint(32), publicKey: s.loadBuffer(32), extensions: s.loadMaybeRef() }),
      },
    ],
  },
};

export const CATALOG: readonly CatalogEntry[] = [jettonMinter, jettonWallet, nftCollection, nftItem, walletV4r2, walletV5r1];

/** A getter as the API lists it. */
export const getMethodOf = (g: Getter): ActonGetMethod => ({
  name: g.name,
  method_id: getMethodId(g.name),
  parameters: g.parameters,
  return: g.returns,
  ...(g.description ? { description: g.description } : {}),
});

/** An entry as /contracts lists it; its ABI (getters and body types) only when asked for. */
export function contractOf(e: CatalogEntry, withAbi: boolean): ActonContract {
  const get_methods = e.getters.map(getMethodOf);
  return {
    catalog_id: e.id,
    display_name: e.displayName,
    code_hashes: [e.codeHash.toString('base64')],
    known_addresses: [],
    links: [],
    get_methods,
    ...(withAbi
      ? {
          abi: {
            get_methods,
            ...Object.fromEntries(Object.entries(e.bodies).map(([d, types]) => [d, types!.map((t) => ({ name: t.name, ...(t.op !== undefined ? { opcode: `0x${t.op.toString(16).padStart(8, '0')}` } : {}) }))])),
          },
        }
      : {}),
  };
}

/** The catalog's revision: SHA-256 of what it declares. */
export const CATALOG_REVISION = createHash('sha256').update(JSON.stringify(CATALOG.map((e) => contractOf(e, true)))).digest('hex');
