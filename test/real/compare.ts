/**
 * Field-by-field comparison of a GraphQL answer with the recorded JSON it was served from. A field's recorded
 * member is its snake_case name, or the member named in RECORDED_AS where the graph names it otherwise; values
 * are converted as the schema's scalars define them (Hash: base64, Address: raw upper-case, BigInt: decimal
 * string). Counts every field that came back null, so a run can say which fields lacked a recording.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { addrKey, hashKey, type JsonObject } from './corpus.js';

/** A member path (`a.b`), or the member and how the graph's value is made from it. */
type Lookup = string | { member: string; also?: string[]; read: (j: JsonObject) => unknown };

/** v3's `{currency id: amount}` map as the graph lists it. */
const currencies = (member: string): Lookup => ({
  member,
  read: (j) => {
    const m = j[member];
    return m && typeof m === 'object' ? Object.entries(m).map(([id, amount]) => ({ id: Number(id), amount })) : m;
  },
});

/** Graph fields whose recorded member is not their snake_case name. */
const RECORDED_AS: Record<string, Lookup> = {
  'Trace.state': 'trace_info.trace_state',
  'Trace.classificationState': 'trace_info.classification_state',
  'Trace.messageCount': 'trace_info.messages',
  'Trace.transactionCount': 'trace_info.transactions',
  'Trace.pendingMessageCount': 'trace_info.pending_messages',
  'Trace.root': 'trace',
  'Trace.transactions': {
    member: 'transactions',
    also: ['transactions_order'],
    read: (j) => ((j.transactions_order as string[]) ?? []).map((h) => (j.transactions as JsonObject)[h]),
  },
  'Transaction.totalFeesExtraCurrencies': currencies('total_fees_extra_currencies'),
  'Message.valueExtraCurrencies': currencies('value_extra_currencies'),
  'AccountStateSnapshot.extraCurrencies': currencies('extra_currencies'),
  'TraceTreeNode.transactionHash': 'tx_hash',
  'TraceTreeNode.inMessageHash': 'in_msg_hash',
  'Transaction.prevTransactionHash': 'prev_trans_hash',
  'Transaction.prevTransactionLt': 'prev_trans_lt',
  'Transaction.inMessage': 'in_msg',
  'Transaction.outMessages': 'out_msgs',
  'Transaction.block': 'block_ref',
  'TransactionDescription.storagePhase': 'storage_ph',
  'TransactionDescription.creditPhase': 'credit_ph',
  'TransactionDescription.computePhase': 'compute_ph',
  'TransactionDescription.actionPhase': 'action',
  'TransactionDescription.bouncePhase': 'bounce',
  'AccountStateSnapshot.status': 'account_status',
  'Message.body': 'message_content.body',
  'Message.bodyHash': 'message_content.hash',
  'Message.initState': 'init_state.body',
  'Message.initStateHash': 'init_state.hash',
  'Message.decodedBody': 'message_content.decoded',
  'CreditPhase.creditExtraCurrencies': currencies('credit_extra_currencies'),
  'TransactionDescription.splitInfo': 'split_info',
  'SplitInfo.thisAddress': 'this_addr',
  'SplitInfo.siblingAddress': 'sibling_addr',
  'Action.detailsJson': 'details',
  'Block.masterchainBlock': 'masterchain_block_ref',
  'ConfigParam.boc': 'config.bytes',
};

/** The top-level recorded members a field reads. */
function membersOf(type: string, field: string): string[] {
  const how = RECORDED_AS[`${type}.${field}`] ?? snake(field);
  return typeof how === 'object' ? [how.member, ...(how.also ?? [])] : [how.split('.')[0]!];
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function recorded(type: string, field: string, j: JsonObject): { found: boolean; value?: unknown } {
  const how = RECORDED_AS[`${type}.${field}`] ?? snake(field);
  if (typeof how === 'object') return how.member in j ? { found: true, value: how.read(j) } : { found: false };
  let cur: unknown = j;
  for (const part of how.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in (cur as object))) return { found: false };
    cur = (cur as Record<string, unknown>)[part];
  }
  return { found: true, value: cur };
}

export class Comparison {
  /** Type.field → [null, non-null] occurrences */
  readonly nulls = new Map<string, [number, number]>();
  readonly compared = new Set<string>();
  /** fields that came back null where the recording holds null or nothing for them */
  readonly recordedNull = new Set<string>();
  /** fields that came back null because no recording answered the lookup they need */
  readonly unanswered = new Set<string>();
  /** per type: the recorded members met, and those some field read */
  private readonly members = new Map<string, { seen: Set<string>; read: Set<string> }>();

  /** Recorded members no field of the type ever read, as Type.member: what the graph does not expose. */
  unread(): string[] {
    return [...this.members].flatMap(([type, { seen, read }]) => [...seen].filter((k) => !read.has(k)).map((k) => `${type}.${k}`)).sort();
  }
  readonly mismatches: string[] = [];
  /** Type.field → mismatches */
  readonly mismatchedFields = new Map<string, number>();

  private mismatch(key: string, text: string): void {
    this.mismatches.push(text);
    this.mismatchedFields.set(key, (this.mismatchedFields.get(key) ?? 0) + 1);
  }

  constructor(private readonly schema: GraphQLSchema) {}

  /** Walks `value` (of GraphQL type `typeName`) next to `json` (the recorded object, if any). */
  walk(typeName: string, value: Record<string, unknown>, json: JsonObject | undefined, at: string): void {
    const concrete = typeof value.__typename === 'string' ? value.__typename : typeName;
    const type = this.schema.getType(concrete);
    if (!isObjectType(type)) return;
    const fields = type.getFields();
    const members = this.members.get(concrete) ?? { seen: new Set<string>(), read: new Set<string>() };
    this.members.set(concrete, members);
    // "@type" members of v2 answers name the TL type, they hold no value
    for (const k of Object.keys(json ?? {})) if (!k.startsWith('@')) members.seen.add(k);
    for (const [name, v] of Object.entries(value)) {
      const f = fields[name];
      if (!f) continue;
      const key = `${concrete}.${name}`;
      const counts = this.nulls.get(key) ?? [0, 0];
      counts[v === null ? 0 : 1]++;
      this.nulls.set(key, counts);
      const rec = json ? recorded(concrete, name, json) : { found: false };
      if (rec.found) for (const m of membersOf(concrete, name)) members.read.add(m);
      // a null node, or a null in an object no recording holds, needed a lookup no recording answered
      if (v === null) {
        if (isNodeType(getNamedType(f.type)) || !json) this.unanswered.add(key);
        else if (!(rec.found && rec.value != null)) this.recordedNull.add(key);
      }
      this.field(key, f.type, v, rec.found ? rec.value : undefined, rec.found, `${at}.${name}`);
    }
  }

  private field(key: string, type: GraphQLOutputType, v: unknown, rec: unknown, found: boolean, at: string): void {
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) {
      if (!Array.isArray(v)) return;
      const recList = Array.isArray(rec) ? rec : undefined;
      if (found && recList && recList.every((r) => typeof r === 'string')) {
        // a list of objects recorded as a list of their keys (Action.transactions: hashes)
        this.compared.add(key);
        const got = v.map((x) => keyOf(x as Record<string, unknown>)).sort();
        const want = recList.map((r) => normKey(r as string)).sort();
        if (!isDeepStrictEqual(got, want)) this.mismatch(key, `${at}: ${JSON.stringify(got)} != recorded ${JSON.stringify(want)}`);
        return;
      }
      if (found && recList && recList.length !== v.length) this.mismatch(key, `${at}: ${v.length} items, recorded ${recList.length}`);
      v.forEach((x, i) => this.field(key, inner.ofType as GraphQLOutputType, x, recList?.[i], found && !!recList, `${at}[${i}]`));
      return;
    }
    const named = getNamedType(inner);
    if (isCompositeType(named)) {
      if (v === null || typeof v !== 'object') {
        // a node is fetched by its own call: null there means no recording answered it, not a wrong value
        if (found && !isNodeType(named) && rec !== null && rec !== undefined && typeof rec === 'object' && !isDeepStrictEqual(rec, {}))
          this.mismatch(key, `${at}: null, recorded ${JSON.stringify(rec).slice(0, 120)}`);
        return;
      }
      const obj = v as Record<string, unknown>;
      if (found && typeof rec === 'string') {
        // an object recorded as its key (an address or a hash)
        const k = keyOf(obj);
        if (k !== null) {
          this.compared.add(key);
          if (k !== normKey(rec)) this.mismatch(key, `${at}: ${k} != recorded ${rec}`);
        }
        return;
      }
      this.walk(named.name, obj, found && rec && typeof rec === 'object' && !Array.isArray(rec) ? (rec as JsonObject) : undefined, at);
      return;
    }
    if (!found) return;
    this.compared.add(key);
    if (!sameScalar(isEnumType(named) ? 'String' : named.name, v, rec))
      this.mismatch(key, `${at}: ${JSON.stringify(v)?.slice(0, 120)} != recorded ${JSON.stringify(rec)?.slice(0, 120)}`);
  }
}

const isNodeType = (t: unknown): boolean => isObjectType(t) && t.getInterfaces().some((i) => i.name === 'Node');

const keyOf = (o: Record<string, unknown>): string | null =>
  typeof o.address === 'string' ? o.address : typeof o.hash === 'string' ? o.hash : null;

const normKey = (s: string): string => {
  try {
    return addrKey(s);
  } catch {
    return hashKey(s);
  }
};

function sameScalar(scalar: string, got: unknown, rec: unknown): boolean {
  if (rec === undefined || rec === null) return got === null || got === undefined;
  if (got === null) return false;
  switch (scalar) {
    case 'Hash':
      return got === hashKey(String(rec));
    case 'Address':
      return got === addrKey(String(rec));
    case 'BigInt':
      return got === BigInt(rec as string | number).toString();
    case 'Int':
    case 'Float':
      return got === Number(rec);
    case 'Boc':
      return Buffer.from(String(got), 'base64').equals(Buffer.from(String(rec), 'base64'));
    case 'String':
      // a JSON text (Action.detailsJson) stands for the recorded object
      if (typeof rec === 'object' && typeof got === 'string') return isDeepStrictEqual(JSON.parse(got), rec);
      return got === rec || got === String(rec);
    case 'Boolean':
    case 'ID':
      return got === rec || (typeof rec !== 'object' && got === String(rec));
    default:
      // JSON-valued scalars: the recorded value itself
      return isDeepStrictEqual(got, rec);
  }
}
