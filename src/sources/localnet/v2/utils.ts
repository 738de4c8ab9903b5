/** v2 utility endpoints (v2.md §3.7): address and hash forms, no chain read. */
import { ApiError } from '../../../api/errors.js';
import type * as v2 from '../../../api/v2.js';
import { parseAddressAny, rawLower, rawUpper } from '../../../model/address.js';
import { parseHash } from '../../../model/hash.js';

export function localUtils(): v2.UtilsApi {
  function parseAddress(s: string) {
    const parsed = parseAddressAny(s);
    if (!parsed) throw new ApiError(422, `Failed to parse ton_addr: '${s}'`);
    return parsed;
  }

  return {
    async detectAddress(p: { address: string }): Promise<v2.DetectedAddress> {
      const a = parseAddress(p.address);
      const variant = (bounceable: boolean): v2.DetectedAddressVariant => ({
        '@type': 'ext.utils.detectedAddressVariant',
        b64: a.address.toString({ bounceable, urlSafe: false, testOnly: a.testOnly }),
        b64url: a.address.toString({ bounceable, urlSafe: true, testOnly: a.testOnly }),
      });
      return {
        '@type': 'ext.utils.detectedAddress',
        raw_form: rawLower(a.address),
        bounceable: variant(true),
        non_bounceable: variant(false),
        given_type: a.givenType,
        test_only: a.testOnly,
      };
    },

    async detectHash(p: { hash: string }): Promise<v2.DetectedHash> {
      const h = parseHash(p.hash);
      if (!h) throw new ApiError(422, `invalid hash: '${p.hash}'`);
      return { '@type': 'ext.utils.detectedHash', b64: h.toString('base64'), b64url: h.toString('base64url'), hex: h.toString('hex') };
    },

    async packAddress(p: { address: string }): Promise<string> {
      const a = parseAddress(p.address);
      return a.address.toString({ bounceable: a.bounceable, urlSafe: true, testOnly: a.testOnly });
    },

    async unpackAddress(p: { address: string }): Promise<string> {
      return rawUpper(parseAddress(p.address).address);
    },
  };
}
