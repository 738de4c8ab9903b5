/** Details of TON DNS actions: record changes, renewals, domain purchases and releases (v3.md §4.4 "DNS"). */
import type { ChangeDnsValue } from '../../../../api/v3/action-details.js';
import { detailsType, structType } from './kit.js';

const DnsValueRef = structType<ChangeDnsValue>('DnsRecordValue', 'A DNS record value: one member is set, as `sumType` says.', (f) => ({
  sumType: f.string('sum_type', (v) => v.sum_type, 'DNSSmcAddress, DNSNextResolver, DNSAdnlAddress, DNSStorageAddress or DNSText'),
  dnsSmcAddress: f.account('dns_smc_address', (v) => v.dns_smc_address),
  dnsAdnlAddress: f.string('dns_adnl_address', (v) => v.dns_adnl_address),
  dnsText: f.string('dns_text', (v) => v.dns_text),
  dnsNextResolverAddress: f.account('dns_next_resolver_address', (v) => v.dns_next_resolver_address),
  dnsStorageAddress: f.string('dns_storage_address', (v) => v.dns_storage_address, 'also holds a DNSText value (a bug of the reference, kept)'),
  flags: f.int('flags', (v) => v.flags),
}));

export const DNS_DETAILS = [
  detailsType('ChangeDnsDetails', ['change_dns'], 'A DNS record of a domain set', (f) => ({
    key: f.string('key', (a) => a.details.key, 'the record key, hex'),
    value: f.object('value', DnsValueRef, (a) => a.details.value),
    source: f.account('source', (a) => a.details.source),
    ...f.nftItem('domain', 'asset', (a) => a.details.asset, 'the domain NFT item'),
    ...f.nftCollection('collection', 'nft_collection', (a) => a.details.nft_collection),
  })),
  detailsType('DeleteDnsDetails', ['delete_dns'], 'A DNS record of a domain deleted', (f) => ({
    key: f.string('hash', (a) => a.details.hash, 'the record key, hex'),
    source: f.account('source', (a) => a.details.source),
    ...f.nftItem('domain', 'asset', (a) => a.details.asset, 'the domain NFT item'),
    ...f.nftCollection('collection', 'nft_collection', (a) => a.details.nft_collection),
  })),
  detailsType('RenewDnsDetails', ['renew_dns'], 'A domain renewed', (f) => ({
    source: f.account('source', (a) => a.details.source),
    ...f.nftItem('domain', 'asset', (a) => a.details.asset, 'the domain NFT item'),
    ...f.nftCollection('collection', 'nft_collection', (a) => a.details.nft_collection),
  })),
  detailsType('DnsPurchaseDetails', ['dns_purchase'], 'A domain bought', (f) => ({
    ...f.nftCollection('collection', 'nft_collection', (a) => a.details.nft_collection),
    ...f.nftItem('item', 'nft_item', (a) => a.details.nft_item),
    index: f.bigint('nft_item_index', (a) => a.details.nft_item_index),
    newOwner: f.account('new_owner', (a) => a.details.new_owner),
    price: f.bigint('price', (a) => a.details.price),
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    payoutAmount: f.bigint('payout_amount', (a) => a.details.payout_amount),
  })),
  detailsType('DnsReleaseDetails', ['dns_release'], 'A domain released by its owner', (f) => ({
    queryId: f.bigint('query_id', (a) => a.details.query_id),
    source: f.account('source', (a) => a.details.source),
    ...f.nftItem('item', 'nft_item', (a) => a.details.nft_item),
    ...f.nftCollection('collection', 'nft_collection', (a) => a.details.nft_collection),
    index: f.bigint('nft_item_index', (a) => a.details.nft_item_index),
    value: f.bigint('value', (a) => a.details.value),
  })),
];
