/**
 * /api/v3/dns/records over the local chain (v3.md §2.5): DNS items found in the contract index
 * (indexer/contracts.ts) by wallet or domain; none when the chain holds no DNS contracts.
 */
import { ApiError } from '../../../api/errors.js';
import { resolvePage } from '../../../api/v3/common.js';
import type { DnsApi, DnsRecord, DnsRecordsParams, DnsRecordsResponse } from '../../../api/v3/dns.js';
import { rawUpper } from '../../../model/address.js';
import type { NftItemState } from '../indexer/contract-state.js';
import type { LocalV3Context } from './v3-context.js';
import { orderBy, pageOf } from './v3-order.js';
import { present } from './v3-tokens-json.js';

export function localDns(ctx: LocalV3Context): DnsApi {
  return {
    async dnsRecords(p: DnsRecordsParams): Promise<DnsRecordsResponse> {
      if (p.wallet === undefined && p.domain === undefined) throw new ApiError(422, 'either wallet address or domain is required');
      if (p.wallet !== undefined && p.domain !== undefined) throw new ApiError(422, 'provide either wallet address or domain, not both');
      resolvePage(p);
      await ctx.indexer.contracts.sync();
      const wallet = p.wallet && rawUpper(p.wallet);
      const list = ctx.indexer.contracts
        .list('nft_item')
        .filter((i) => i.dns !== null && (wallet ? i.dns.wallet === wallet : i.dns.domain === p.domain))
        // crud_dns.go: ORDER BY LENGTH(domain), domain
        .sort(orderBy<NftItemState>([(i) => i.dns!.domain.length, 'asc'], [(i) => i.dns!.domain, 'asc']));
      const records = pageOf(list, p).map(dnsToV3);
      const addrs = records.flatMap((r) => present(r.nft_item_address, r.nft_item_owner, r.dns_wallet, r.dns_next_resolver));
      return { records, address_book: ctx.book(addrs, p) };
    },
  };
}

function dnsToV3(i: NftItemState): DnsRecord {
  const d = i.dns!;
  return {
    nft_item_address: i.raw,
    nft_item_owner: i.owner,
    domain: d.domain,
    dns_next_resolver: d.nextResolver,
    dns_wallet: d.wallet,
    dns_site_adnl: d.siteAdnl,
    dns_storage_bag_id: d.storageBagId,
  };
}
