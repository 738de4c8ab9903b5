/**
 * Account addresses in every form toncenter accepts (v2.md §1.2, §8):
 * raw `wc:hex` (any case), user-friendly base64 or base64url (48 chars, bounceable or not, test-only flag),
 * and a bare 64-hex account id, which pytonlib reads as a masterchain address.
 */
import { Address } from '@ton/core';

export type GivenAddressType = 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';

export interface ParsedAddress {
  address: Address;
  givenType: GivenAddressType;
  bounceable: boolean;
  testOnly: boolean;
}

const RAW = /^(-?\d{1,10}):([0-9a-fA-F]{64})$/;
const BARE_HEX = /^[0-9a-fA-F]{64}$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/** Parsed forms of recently seen inputs: clients ask about the same few addresses again and again. */
const parsedInputs = new Map<string, Readonly<ParsedAddress> | null>();
const PARSED_INPUTS_MAX = 4096;
/** the longest accepted form: `-2147483648:` and 64 hex digits */
const LONGEST_INPUT = 76;

/**
 * Parses an address in any accepted form; returns null when it is not an address. The answer may be shared
 * with other callers: it is frozen (and so is its Address).
 */
export function parseAddressAny(input: string): Readonly<ParsedAddress> | null {
  if (input.length > LONGEST_INPUT) return null;
  let parsed = parsedInputs.get(input);
  if (parsed === undefined) {
    if (parsedInputs.size >= PARSED_INPUTS_MAX) parsedInputs.clear();
    parsed = parseUncached(input);
    parsedInputs.set(input, parsed && Object.freeze(parsed));
  }
  return parsed;
}

function parseUncached(input: string): ParsedAddress | null {
  const raw = RAW.exec(input);
  if (raw) {
    const wc = Number(raw[1]);
    if (wc < -128 || wc > 127) return null;
    return { address: new Address(wc, Buffer.from(raw[2]!, 'hex')), givenType: 'raw_form', bounceable: true, testOnly: false };
  }
  if (BARE_HEX.test(input)) {
    return { address: new Address(-1, Buffer.from(input, 'hex')), givenType: 'raw_form', bounceable: true, testOnly: false };
  }
  if (FRIENDLY.test(input)) {
    try {
      const f = Address.parseFriendly(input);
      return {
        address: f.address,
        givenType: f.isBounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
        bounceable: f.isBounceable,
        testOnly: f.isTestOnly,
      };
    } catch {
      return null;
    }
  }
  return null;
}

/** Raw form with uppercase hex, as v3 and the C++ v2 variant print it: `0:83DF…`. */
export const rawUpper = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** Raw form with lowercase hex: `0:83df…`. */
export const rawLower = (a: Address): string => `${a.workChain}:${a.hash.toString('hex')}`;

/** User-friendly form; toncenter's v2 defaults are bounceable, url-safe, mainnet. */
export const friendly = (a: Address, opts: { bounceable?: boolean; urlSafe?: boolean; testOnly?: boolean } = {}): string =>
  a.toString({ bounceable: opts.bounceable ?? true, urlSafe: opts.urlSafe ?? true, testOnly: opts.testOnly ?? false });
