/** The openapi response check (test/helpers/openapi.ts) accepts real toncenter data and still catches wrong shapes. */
import { describe, expect, it } from 'vitest';
import { assertResponse, responseValidator } from '../../helpers/openapi.js';
import { readSharedJson, withoutShared } from '../../helpers/shared.js';

const noShared = withoutShared('the v3 openapi schema check (the reference and a recorded answer)');
const recorded = noShared
  ? { transactions: [], address_book: {} }
  : readSharedJson<{ transactions: Array<Record<string, unknown>>; address_book: Record<string, unknown> }>(
      'fixtures/axelar-relayer-ton.v3_transactions.json',
    );

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const TX = '/api/v3/transactions';

describe.skipIf(noShared)('v3 openapi schema check', () => {
  it('the recorded real /api/v3/transactions response validates', () => {
    expect(recorded.transactions.length).toBeGreaterThan(0);
    expect(() => assertResponse(TX, 'get', 200, recorded)).not.toThrow();
  });

  it('the same data fails when a type is wrong (the check is not vacuous)', () => {
    const bad = clone(recorded);
    bad.transactions[0]!.now = '1751291309';
    expect(() => assertResponse(TX, 'get', 200, bad)).toThrow(/\/transactions\/0\/now/);

    const bad2 = clone(recorded);
    (bad2.transactions[0]!.in_msg as Record<string, unknown>).opcode = 13;
    expect(() => assertResponse(TX, 'get', 200, bad2)).toThrow(/opcode/);

    const bad3 = clone(recorded);
    (bad3.transactions[0]!.block_ref as Record<string, unknown>).seqno = 'x';
    expect(() => assertResponse(TX, 'get', 200, bad3)).toThrow(/block_ref/);

    expect(() => assertResponse(TX, 'get', 200, { transactions: {} })).toThrow();
  });

  it('the v3 error body fits the declared RequestError', () => {
    const validate = responseValidator(TX, 'get', 400);
    expect(validate({ code: 422, error: 'wrong value for sort parameter' })).toBe(true);
    expect(validate({ code: '422', error: 1 })).toBe(false);
  });
});
