import { createRequire } from 'node:module';
import { beginCell, Cell } from '@ton/core';
import {
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5Beta,
  WalletContractV5R1,
} from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { detectWallet, WALLET_CODE_HASHES } from '../../src/model/wallet.js';

const publicKey = Buffer.alloc(32, 0x42);
const require = createRequire(import.meta.url);

describe('wallet code hashes', () => {
  it('match the code @ton/ton embeds, with the C++ constants for v3r2, v4r2, v5 beta, v5r1', () => {
    const shipped = [
      ['wallet v1 r1', WalletContractV1R1.create({ workchain: 0, publicKey })],
      ['wallet v1 r2', WalletContractV1R2.create({ workchain: 0, publicKey })],
      ['wallet v1 r3', WalletContractV1R3.create({ workchain: 0, publicKey })],
      ['wallet v2 r1', WalletContractV2R1.create({ workchain: 0, publicKey })],
      ['wallet v2 r2', WalletContractV2R2.create({ workchain: 0, publicKey })],
      ['wallet v3 r1', WalletContractV3R1.create({ workchain: 0, publicKey })],
      ['wallet v3 r2', WalletContractV3R2.create({ workchain: 0, publicKey })],
      ['wallet v4 r2', WalletContractV4.create({ workchain: 0, publicKey })],
      ['wallet v5 beta', WalletContractV5Beta.create({ publicKey })],
      ['wallet v5 r1', WalletContractV5R1.create({ publicKey })],
    ] as const;
    for (const [type, w] of shipped) {
      expect(WALLET_CODE_HASHES.get(w.init.code.hash().toString('base64'))?.type, type).toBe(type);
    }
    const cpp = {
      'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=': WalletContractV3R2.create({ workchain: 0, publicKey }),
      '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=': WalletContractV4.create({ workchain: 0, publicKey }),
      'IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=': WalletContractV5R1.create({ publicKey }),
      '89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=': WalletContractV5Beta.create({ publicKey }),
    };
    for (const [hash, w] of Object.entries(cpp)) expect(w.init.code.hash().toString('base64')).toBe(hash);
  });

  it('v4r1 matches the code tonweb ships', async () => {
    const tonweb = require('tonweb');
    const TonWeb = tonweb.default ?? tonweb;
    const w = new TonWeb.Wallets.all.v4R1(new TonWeb.HttpProvider(), { publicKey: new Uint8Array(publicKey), wc: 0 });
    const code = Cell.fromBoc(Buffer.from(await w.createCodeCell().toBoc(false)))[0]!;
    expect(WALLET_CODE_HASHES.get(code.hash().toString('base64'))?.type).toBe('wallet v4 r1');
  });
});

describe('detectWallet', () => {
  it('v4r2 with seqno 5 and the default wallet id', () => {
    const w = WalletContractV4.create({ workchain: 0, publicKey });
    // the same layout as w.init.data, at seqno 5
    const data = beginCell().storeUint(5, 32).storeUint(698983191, 32).storeBuffer(publicKey).storeBit(false).endCell();
    expect(detectWallet(w.init.code, data)).toEqual({ type: 'wallet v4 r2', seqno: 5, walletId: 698983191 });
    expect(detectWallet(w.init.code, w.init.data)).toEqual({ type: 'wallet v4 r2', seqno: 0, walletId: 698983191 });
  });

  it('v3r2 from its init state', () => {
    const w = WalletContractV3R2.create({ workchain: 0, publicKey, walletId: 123 });
    expect(detectWallet(w.init.code, w.init.data)).toEqual({ type: 'wallet v3 r2', seqno: 0, walletId: 123 });
  });

  it('v5r1: signature flag, seqno, wallet id', () => {
    const w = WalletContractV5R1.create({ publicKey });
    const d = detectWallet(w.init.code, w.init.data);
    expect(d).toEqual({ type: 'wallet v5 r1', seqno: 0, walletId: 2147483409, isSignatureAllowed: true });
    // 2147483409: mainnet, workchain 0, subwallet 0; the first 32 bits after the flag and seqno
    expect(d!.walletId).toBe(w.init.data.beginParse().skip(33).loadInt(32));
  });

  it('v1r3 reads only the seqno', () => {
    const w = WalletContractV1R3.create({ workchain: 0, publicKey });
    expect(detectWallet(w.init.code, w.init.data)).toEqual({ type: 'wallet v1 r3', seqno: 0 });
  });

  it('unknown code, missing cells or short data give null', () => {
    const w = WalletContractV4.create({ workchain: 0, publicKey });
    expect(detectWallet(beginCell().storeUint(1, 8).endCell(), w.init.data)).toBeNull();
    expect(detectWallet(null, w.init.data)).toBeNull();
    expect(detectWallet(w.init.code, undefined)).toBeNull();
    expect(detectWallet(w.init.code, beginCell().storeUint(1, 16).endCell())).toBeNull();
  });
});
