import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, Cell } from '@ton/core';
import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { DataDirError, LocalChain, SHARD_ALL } from '../../../src/sources/localnet/index.js';

describe('the global id option', () => {
  const globalId = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const c = loadConfig(argv, env);
    if (c === 'help') throw new Error('help');
    return c.globalId;
  };

  it('follows NETWORK unless --global-id or GLOBAL_ID says otherwise', () => {
    expect(globalId([])).toBe(-3);
    expect(globalId(['--network', 'mainnet'])).toBe(-239);
    expect(globalId([], { NETWORK: 'mainnet' })).toBe(-239);
    expect(globalId(['--global-id=-217'])).toBe(-217);
    expect(globalId([], { GLOBAL_ID: '42', NETWORK: 'mainnet' })).toBe(42);
    expect(() => globalId(['--global-id', 'x'])).toThrow('GLOBAL_ID must be a number');
    expect(() => globalId(['--global-id', String(2 ** 31)])).toThrow('GLOBAL_ID must be at most');
  });
});

describe('a testnet local chain', () => {
  let chain: LocalChain;

  beforeAll(async () => {
    chain = await LocalChain.create({ seed: 'global-id-test', blockInterval: 0, network: 'testnet' });
  }, 120_000);

  afterAll(() => chain?.close());

  it('has global id -3 in config param 19, block headers and v3 blocks', async () => {
    const p19 = await chain.v2.getConfigParam({ configId: 19 });
    expect(Cell.fromBase64(p19.config.bytes).beginParse().loadInt(32)).toBe(-3);
    const last = chain.store.lastMc.seqno;
    expect((await chain.v2.getBlockHeader({ workchain: -1, shard: SHARD_ALL, seqno: last })).global_id).toBe(-3);
    expect((await chain.v2.getBlockHeader({ workchain: 0, shard: SHARD_ALL, seqno: 1 })).global_id).toBe(-3);
    const { blocks } = await chain.v3.blocks({ workchain: -1, limit: 2, offset: 0, sort: 'asc' });
    expect(blocks.map((b) => b.global_id)).toEqual([-3, -3]);
  });

  it('deploys its v5r1 genesis wallets where a client building them for testnet looks', async () => {
    const v5 = chain.wallets().filter((w) => w.version === 'v5r1');
    expect(v5).toHaveLength(2);
    for (const w of v5) {
      const key = await mnemonicToPrivateKey(w.mnemonic);
      const client = WalletContractV5R1.create({ publicKey: key.publicKey, walletId: { networkGlobalId: -3 } });
      expect(Address.parse(w.address).equals(client.address)).toBe(true);
      expect((await chain.v2.getAddressState({ address: client.address })).toString()).toBe('active');
    }
  });
});

describe('a durable chain', () => {
  it('refuses to continue under another global id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'global-id-'));
    try {
      await (await LocalChain.create({ seed: 'global-id-dir', blockInterval: 0, network: 'testnet', dataDir: dir })).close();
      const again = LocalChain.create({ seed: 'global-id-dir', blockInterval: 0, network: 'mainnet', dataDir: dir });
      await expect(again).rejects.toThrow(DataDirError);
      await expect(again).rejects.toThrow('global id -3, not -239');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
