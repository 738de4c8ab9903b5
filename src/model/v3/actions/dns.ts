/** TON DNS items: a record changed, deleted, or the domain renewed (a change of the zero key with no value). */
import type { ChangeDnsValue } from '../../../api/v3/action-details.js';
import { COMMON_OP } from '../../tlb/common.js';
import { DNS_OP, loadChangeDnsRecord, type DnsRecord } from '../../tlb/dns.js';
import { defineMatcher, found, isCall } from './block.js';

/** A DNS record as v3 prints it; the reference writes a text record into `dns_storage_address`. */
function dnsRecordJson(r: DnsRecord): ChangeDnsValue {
  return {
    sum_type: r.schema,
    dns_smc_address: r.schema === 'DNSSmcAddress' ? r.address : null,
    dns_adnl_address: r.schema === 'DNSAdnlAddress' ? r.adnl.toString('hex') : null,
    dns_text: null,
    dns_next_resolver_address: r.schema === 'DNSNextResolver' ? r.address : null,
    dns_storage_address: r.schema === 'DNSStorageAddress' ? r.bagId.toString('hex') : r.schema === 'DNSText' ? r.text : null,
    flags: r.schema === 'DNSSmcAddress' || r.schema === 'DNSAdnlAddress' ? r.flags : null,
  };
}

const KEYS = ['source', 'asset', 'nft_collection'] as const;

export const changeDns = defineMatcher({
  name: 'change_dns',
  addressKeys: { change_dns: KEYS, renew_dns: KEYS, delete_dns: KEYS },
  async match(b, info) {
    if (!isCall(b, DNS_OP.changeDnsRecord)) return null;
    const node = b.nodes[0]!;
    const msg = loadChangeDnsRecord(node.body);
    const item = await info.nftItem(node.account);
    const common = { source: node.source, asset: node.account, nft_collection: item?.collection ?? null };
    const include = [b, ...b.next.filter((n) => isCall(n, COMMON_OP.bounce))];
    if (msg.value) return found({ type: 'change_dns', include, failed: b.failed, details: { key: msg.key.toString('hex'), value: dnsRecordJson(msg.value), ...common } });
    if (msg.key.equals(Buffer.alloc(32))) return found({ type: 'renew_dns', include, failed: b.failed, details: common });
    return found({ type: 'delete_dns', include, failed: b.failed, details: { hash: msg.key.toString('hex'), ...common } });
  },
});
