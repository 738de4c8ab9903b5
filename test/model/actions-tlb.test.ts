/**
 * The message-body schemes of src/model/tlb on real mainnet bodies: each vector is a message of a recorded
 * `/api/v3/traces` answer in ../shared/fixtures/real (origin in its README), named by the answer and the message hash,
 * and the expected values are what the same answer's decoded fields or recorded actions say.
 */
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import type { Transaction as V3Transaction } from '../../src/api/v3/transactions.js';
import { DEDUST_OP, loadSwapEvent } from '../../src/model/tlb/dedust.js';
import { loadChangeDnsRecord } from '../../src/model/tlb/dns.js';
import { loadStonfiV2PayTo, STONFI_V2_SWAP_OK } from '../../src/model/tlb/stonfi.js';
import { loadWalletExternalPayloads } from '../../src/model/tlb/wallet-external.js';
import { rawUpper } from '../../src/model/address.js';
import { readSharedJson, withoutShared } from '../helpers/shared.js';

const noShared = withoutShared('src/model/tlb on the recorded mainnet bodies');

/** The body of the message `hash` (base64) of a recorded trace, in or out. */
function body(name: string, hash: string): Cell {
  const answer = readSharedJson<{ traces: [{ transactions: Record<string, V3Transaction> }] }>(
    `fixtures/real/mytonwallet-org.mytonwallet.${name}TraceResponse.json`,
  );
  for (const t of Object.values(answer.traces[0].transactions)) {
    for (const m of [t.in_msg, ...t.out_msgs]) if (m?.hash === hash && m.message_content?.body) return Cell.fromBase64(m.message_content.body);
  }
  throw new Error(`no message ${hash} in ${name}`);
}

describe.skipIf(noShared)('src/model/tlb on real mainnet bodies', () => {
  it('change_dns_record: the wallet record of a .grm domain', () => {
    const r = loadChangeDnsRecord(body('editDomainRecord', 'chc+oxQnKnP9lO4y9UR++10tvjgf/U1W6b2mP+bAp78='));
    expect(r.key.toString('hex')).toBe('e8d44050873dba865aa7c170ab4cce64d90839a34dcfd6cf71d14e0205443b1b');
    expect(r.value).toEqual({ schema: 'DNSSmcAddress', address: '0:B9A7DCE19431B56044254C69858E8DC11FEC5C0761DED415E386FBE4B4E116F5', flags: 0 });
  });

  it('a v5r1 external read for the message it asks the wallet to send (the v3 and v4 layouts fail on it)', () => {
    const payloads = loadWalletExternalPayloads(body('failedTonTransfer', 'Q1tdEZGah/Zcq0weBk/6VYLu0FgMwgUgIlmcDknLpCg='));
    expect(payloads).toHaveLength(1);
    const info = payloads[0]!.message!.info;
    if (info.type !== 'internal') throw new Error('expected an internal message');
    expect(rawUpper(info.dest)).toBe('0:EF38DAD572F077CA45E4194849B1DC0B82F801973FD114A47198492D64283091');
    expect(info.value.coins).toBe(75_000_000_000n);
    expect(payloads[0]!.message!.body.beginParse().skip(32).loadStringTail()).toBe('106776');
  });

  it('DeDust swap event: TON in, USDT out, as the recorded jetton_swap reports', () => {
    const cell = body('dedust-tonSwapUsdt', '/Qj7DVCh/hf5XE25W77j0zZw2EyyIGNrNAgy0g0J2QQ=');
    expect(cell.beginParse().loadUint(32)).toBe(DEDUST_OP.swapEvent);
    expect(loadSwapEvent(cell)).toEqual({
      assetIn: null,
      assetOut: '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE',
      amountIn: 1_000_000_000n,
      amountOut: 2_194_927n,
    });
  });

  it('STON.fi v2 pay_to: the two payouts of a liquidity withdrawal, to the USDT and pTON wallets of the pool', () => {
    const usdt = loadStonfiV2PayTo(body('stonfi-outputLiquidity', 'UXsLecZ8xEM09ztoGkUapQgol9F3GqvuZo8Y+uU8eaA='));
    const pton = loadStonfiV2PayTo(body('stonfi-outputLiquidity', 'TMWycZZR4YB3dj1dq0/vK2G8oDC809hjKGQQZbJcFkY='));
    const user = '0:B9A7DCE19431B56044254C69858E8DC11FEC5C0761DED415E386FBE4B4E116F5';
    const wallets = {
      token0Address: '0:922D627D7D8EDBD00E4E23BDB0C54A76EE5E1F46573A1AF4417857FA3E23E91F',
      token1Address: '0:9220C181A6CFEACD11B7B8F62138DF1BB9CC82B6ED2661D2F5FAEE204B3EFB20',
    };
    // 0xdda48b6a: the pool's "burn ok", not a swap's
    const common = { queryId: 6657824889105n, toAddress: user, excessesAddress: user, originalCaller: user, exitCode: 0xdda48b6a, ...wallets };
    expect(usdt).toEqual({ ...common, amount0Out: 876_241n, amount1Out: 0n });
    expect(pton).toEqual({ ...common, amount0Out: 0n, amount1Out: 415_351_340n });
    expect(usdt.exitCode).not.toBe(STONFI_V2_SWAP_OK);
  });
});
