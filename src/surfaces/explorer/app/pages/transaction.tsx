/** A transaction: its phases, in/out messages with decoded bodies, and its trace as a tree with the actions in words. */
import { ActionList, prettyJson, type Action } from '../actions.js';
import { TRANSACTION } from '../documents.js';
import { Address, Amount, Errors, ErrorBox, Fields, HashText, Loading, Time, route, type AccountRef, Cost } from '../format.js';
import { useQuery } from '../hooks.js';
import { OnChainText } from '../text.js';
import { TraceTree, type TreeTx } from '../trace-tree.js';


interface Msg {
  hash: string;
  source: AccountRef | null;
  destination: AccountRef | null;
  value: string | null;
  fwdFee: string | null;
  bounce: boolean | null;
  bounced: boolean | null;
  createdAt: number | null;
  createdLt: string | null;
  opcode: string | null;
  decodedOpcode: string | null;
  decodedBody: string | null;
  comment: string | null;
}

type Phase = Record<string, unknown> | null;

interface Tx {
  hash: string;
  lt: string;
  now: number;
  totalFees: string;
  origStatus: string;
  endStatus: string;
  mcBlockSeqno: number;
  traceId: string | null;
  account: AccountRef | null;
  block: { workchain: number; shard: string; seqno: number } | null;
  description: {
    type: string;
    aborted: boolean | null;
    destroyed: boolean | null;
    creditFirst: boolean | null;
    storagePhase: Phase;
    creditPhase: Phase;
    computePhase: Phase;
    actionPhase: Phase;
    bouncePhase: Phase;
  } | null;
  inMessage: Msg | null;
  outMessages: Msg[];
  trace: {
    traceId: string | null;
    state: string;
    isIncomplete: boolean;
    transactionCount: number;
    messageCount: number;
    startUtime: number;
    transactions: TreeTx[];
    actions: (Action | null)[] | null;
  } | null;
}

function MessageCard({ m, title }: { m: Msg; title: string }) {
  return (
    <div class="card message">
      <h4>
        {title} {m.decodedOpcode ?? m.opcode ?? (m.comment != null ? 'comment' : 'empty body')} {m.bounced ? <span class="tag bad">bounced</span> : null}
      </h4>
      <Fields
        rows={[
          ['hash', <HashText hash={m.hash} />],
          ['from', m.source ? <Address account={m.source} /> : 'external'],
          ['to', m.destination ? <Address account={m.destination} /> : 'external'],
          ['value', m.value != null ? <Amount value={m.value} /> : null],
          ['forward fee', m.fwdFee != null ? <Amount value={m.fwdFee} /> : null],
          ['opcode', m.opcode],
          ['comment', m.comment != null ? <OnChainText text={m.comment} /> : null],
          ['created', m.createdAt != null ? <Time utime={m.createdAt} /> : null],
        ]}
      />
      {m.decodedBody ? (
        <details open>
          <summary>decoded body</summary>
          <pre>{prettyJson(m.decodedBody)}</pre>
        </details>
      ) : null}
    </div>
  );
}

function PhaseCard({ name, phase }: { name: string; phase: Phase }) {
  if (!phase) return null;
  const rows = Object.entries(phase).filter(([, v]) => v != null).map(([k, v]) => [k, String(v)] as [string, string]);
  return (
    <div class="card phase">
      <h4>{name}</h4>
      <Fields rows={rows} />
    </div>
  );
}

export function TransactionPage({ hash }: { hash: string }) {
  const q = useQuery<{ transaction: Tx | null }>(TRANSACTION, { hash });
  if (q.error) return <ErrorBox error={q.error} />;
  if (q.loading && !q.data) return <Loading />;
  const tx = q.data?.transaction;
  if (!tx) return <ErrorBox error={new Error(`No transaction with hash ${hash}.`)} />;
  const d = tx.description;
  const aborted = d?.aborted === true;
  return (
    <section>
      <Errors errors={q.errors} />
      <Cost q={q} />
      <h2>
        Transaction {aborted ? <span class="tag bad">aborted</span> : <span class="tag ok">success</span>}
      </h2>
      <Fields
        rows={[
          ['hash', <HashText hash={tx.hash} />],
          ['account', <Address account={tx.account} full />],
          ['time', <Time utime={tx.now} />],
          ['lt', tx.lt],
          ['block', tx.block ? <a href={route.block(tx.block.workchain, tx.block.shard, tx.block.seqno)}>{`${tx.block.workchain}:${tx.block.shard}:${tx.block.seqno}`}</a> : null],
          ['masterchain block', tx.mcBlockSeqno],
          ['type', d?.type],
          ['status', `${tx.origStatus} → ${tx.endStatus}`],
          ['total fees', <Amount value={tx.totalFees} />],
        ]}
      />
      <h3>Phases</h3>
      <div class="cards">
        <PhaseCard name="storage" phase={d?.storagePhase ?? null} />
        <PhaseCard name="credit" phase={d?.creditPhase ?? null} />
        <PhaseCard name="compute" phase={d?.computePhase ?? null} />
        <PhaseCard name="action" phase={d?.actionPhase ?? null} />
        <PhaseCard name="bounce" phase={d?.bouncePhase ?? null} />
      </div>
      <h3>Messages</h3>
      <div class="cards">
        {tx.inMessage ? <MessageCard m={tx.inMessage} title="in:" /> : <p class="muted">No in-message (tick-tock).</p>}
        {(tx.outMessages ?? []).map((m) => <MessageCard key={m.hash} m={m} title="out:" />)}
      </div>
      {tx.trace ? (
        <>
          <h3>
            Trace {tx.trace.isIncomplete ? <span class="tag">incomplete</span> : null} <span class="muted">({tx.trace.transactionCount} transactions, {tx.trace.messageCount} messages, {tx.trace.state})</span>
          </h3>
          <TraceTree transactions={tx.trace.transactions ?? []} current={tx.hash} />
          <h3>Actions</h3>
          <ActionList actions={tx.trace.actions} />
        </>
      ) : (
        <p class="muted">The source has no trace for this transaction.</p>
      )}
    </section>
  );
}
