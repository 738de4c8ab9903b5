/**
 * Contract interface detection for address_book and accountStates (v3.md §3.1 `detect.DetectInterface`):
 * an exact code-hash match gives one name; otherwise every interface whose whole get-method set is in the
 * code's method dictionary, sorted. The table covers the standard wallets and the token and DNS standards;
 * the reference's DeFi-specific entries are not carried.
 */
import { Dictionary, getMethodId, type Cell, type DictionaryValue, type Slice } from '@ton/core';

interface InterfaceDef {
  name: string;
  codeHashes?: string[];
  methods?: string[];
}

const INTERFACES: InterfaceDef[] = [
  { name: 'dns', methods: ['dnsresolve'] },
  { name: 'editable', methods: ['get_editor'] },
  { name: 'jetton_master', methods: ['get_jetton_data', 'get_wallet_address'] },
  { name: 'jetton_wallet', methods: ['get_wallet_data'] },
  { name: 'multisig_v2', codeHashes: ['09FNqaYn8Ow1MzQYKXYq+SuVQLIb8DZl+sCcK0bqu6w='], methods: ['get_multisig_data', 'get_order_address'] },
  { name: 'multisig_order_v2', codeHashes: ['oB4Ff71CiEArmJjXjWe9TpAlTJPFhmh5vC0dEoZUNrw='], methods: ['get_order_data'] },
  { name: 'nft_auction_v1', methods: ['get_sale_data'] },
  { name: 'nft_collection', methods: ['get_nft_content', 'get_collection_data', 'get_nft_address_by_index'] },
  { name: 'nft_item', methods: ['get_nft_data'] },
  { name: 'nft_sale', methods: ['get_sale_data'] },
  { name: 'payment_channel', methods: ['get_channel_data'] },
  { name: 'sbt', methods: ['get_authority_address'] },
  { name: 'subscription_v1', methods: ['get_subscription_data'] },
  { name: 'wallet_v1r1', codeHashes: ['oM/CxIruFqJx8s/AtzgtgXVs7LEBfQd/qqs7tgL2how='] },
  { name: 'wallet_v1r2', codeHashes: ['1JAvzJ+tdGmPqONTIgpo2g3PcuMryy657gQhfBfTBiw='], methods: ['seqno'] },
  { name: 'wallet_v1r3', codeHashes: ['WHzHie/xyE9G7DeX5F/ICaFP9a4k8eDHpqmcydyQYf8='], methods: ['seqno', 'get_public_key'] },
  { name: 'wallet_v2r1', codeHashes: ['XJpeaMEI4YchoHxC+ZVr+zmtd+xtYktgxXbsiO7mUyk='], methods: ['seqno'] },
  { name: 'wallet_v2r2', codeHashes: ['/pUw0yQ4Uwg+8u8LTCkIwKv2+hwx6iQ6rKpb+MfXU/E='], methods: ['seqno', 'get_public_key'] },
  { name: 'wallet_v3r1', codeHashes: ['thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE='], methods: ['seqno'] },
  { name: 'wallet_v3r2', codeHashes: ['hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk='], methods: ['get_public_key', 'seqno'] },
  {
    name: 'wallet_v4r1',
    codeHashes: ['ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0='],
    methods: ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id'],
  },
  {
    name: 'wallet_v4r2',
    codeHashes: ['/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA='],
    methods: ['get_plugin_list', 'is_plugin_installed', 'get_public_key', 'seqno', 'get_subwallet_id'],
  },
  { name: 'wallet_v5_beta', codeHashes: ['89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M='], methods: ['seqno'] },
  {
    name: 'wallet_v5r1',
    codeHashes: ['IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8='],
    methods: ['seqno', 'get_public_key', 'get_subwallet_id', 'get_extensions', 'is_signature_allowed'],
  },
];

const methodIdOf = (name: string): number => getMethodId(name) >>> 0;
const COMPILED = INTERFACES.map((i) => ({ ...i, methodIds: (i.methods ?? []).map(methodIdOf) }));

/** Interface names for a code hash (base64) and the code's get-method ids. */
export function detectInterfaces(codeHash: string | null | undefined, methodIds: readonly number[] | null | undefined): string[] {
  if (codeHash) {
    const exact = COMPILED.find((i) => i.codeHashes?.includes(codeHash));
    if (exact) return [exact.name];
  }
  if (!methodIds || methodIds.length === 0) return [];
  const have = new Set(methodIds);
  return COMPILED.filter((i) => i.methodIds.length > 0 && i.methodIds.every((m) => have.has(m)))
    .map((i) => i.name)
    .sort();
}

/** Dictionary values are code continuations; only the keys matter here. */
const AnyValue: DictionaryValue<null> = {
  serialize: () => {
    throw new Error('read-only');
  },
  parse: (_s: Slice) => null,
};

/**
 * Get-method ids of a FunC/Tact-style code cell: `SETCP0; DICTPUSHCONST n` with the method dictionary as
 * the first ref. Other layouts (assembly, library cells) give null, as the reference stores no methods then.
 */
export function contractMethods(code: Cell | null | undefined): number[] | null {
  if (!code || code.isExotic) return null;
  try {
    const s = code.beginParse();
    if (s.remainingBits < 40 || s.loadUint(16) !== 0xff00) return null;
    // DICTPUSHCONST: 14-bit prefix 0b11110100101001, then the 10-bit key length
    if (s.loadUint(14) !== 0b11110100101001) return null;
    const keyBits = s.loadUint(10);
    if (s.remainingRefs < 1) return null;
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(keyBits), AnyValue, s.loadRef());
    return dict
      .keys()
      .map((k) => k >>> 0)
      .sort((a, b) => a - b);
  } catch {
    // a malformed dictionary is treated as "methods unknown"
    return null;
  }
}
