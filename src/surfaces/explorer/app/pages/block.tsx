/** A block: its header, the shard blocks it commits (masterchain) and its transactions, paged. */
import { useState } from 'preact/hooks';
import { ErrorBox, Errors, Fields, HashText, Loading, Time, route, Cost } from '../format.js';
import { BLOCK } from '../documents.js';
import { useQuery } from '../hooks.js';
import { Pager, TxTable, type PageInfo, type Paging, type TxRow } from '../tx-table.js';

const PAGE = 20;


interface BlockRef {
  workchain: number;
  shard: string;
  seqno: number;
}

interface Block extends BlockRef {
  rootHash: string;
  fileHash: string;
  genUtime: number;
  startLt: string;
  endLt: string;
  txCount: number;
  globalId: number;
  version: number;
  keyBlock: boolean;
  masterRefSeqno: number;
  prevKeyBlockSeqno: number;
  genCatchainSeqno: number;
  createdBy: string;
  masterchainBlock: BlockRef | null;
  prevBlocks: (BlockRef | null)[] | null;
  shards: (BlockRef & { txCount: number; genUtime: number })[] | null;
  transactions: { nodes: (TxRow | null)[]; pageInfo: PageInfo } | null;
}

const label = (b: BlockRef) => `${b.workchain}:${b.shard}:${b.seqno}`;
const BlockLink = ({ b }: { b: BlockRef | null }) => (b ? <a href={route.block(b.workchain, b.shard, b.seqno)}>{label(b)}</a> : null);

export function BlockPage({ workchain, shard, seqno }: BlockRef) {
  const [paging, setPaging] = useState<Paging>({ first: PAGE });
  const q = useQuery<{ block: Block | null }>(BLOCK, { workchain, shard, seqno, ...paging });
  if (q.error) return <ErrorBox error={q.error} />;
  if (q.loading && !q.data) return <Loading />;
  const b = q.data?.block;
  if (!b) return <ErrorBox error={new Error(`Block ${workchain}:${shard}:${seqno} does not exist (yet).`)} />;
  return (
    <section>
      <Errors errors={q.errors} />
      <Cost q={q} />
      <h2>Block {label(b)}</h2>
      <Fields
        rows={[
          ['time', <Time utime={b.genUtime} />],
          ['transactions', b.txCount],
          ['root hash', <HashText hash={b.rootHash} />],
          ['file hash', <HashText hash={b.fileHash} />],
          ['lt', `${b.startLt} – ${b.endLt}`],
          ['key block', b.keyBlock ? 'yes' : 'no'],
          ['global id', b.globalId],
          ['version', b.version],
          ['committed by', <BlockLink b={b.masterchainBlock} />],
          ['previous', <>{(b.prevBlocks ?? []).map((p, i) => <span key={i}><BlockLink b={p} /> </span>)}</>],
          ['previous key block', b.prevKeyBlockSeqno],
          ['catchain seqno', b.genCatchainSeqno],
        ]}
      />
      {b.shards ? (
        <>
          <h3>Shard blocks</h3>
          {b.shards.length ? (
            <ul class="shards">
              {b.shards.map((s) => (
                <li key={label(s)}>
                  <BlockLink b={s} /> <span class="muted">{s.txCount} transactions</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No new shard blocks.</p>
          )}
        </>
      ) : null}
      <h3>Transactions</h3>
      <TxTable rows={b.transactions?.nodes ?? []} />
      <Pager pageInfo={b.transactions?.pageInfo} size={PAGE} onPage={setPaging} label="transaction pages" />
    </section>
  );
}
