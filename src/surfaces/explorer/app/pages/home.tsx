/** Home: the latest masterchain blocks, with new ones arriving live through the `blocks` subscription. */
import { useEffect, useState } from 'preact/hooks';
import { type ExplorerError, subscribe } from '../gql.js';
import { ErrorBox, Errors, Loading, Time, route, Cost } from '../format.js';
import { HOME_LATEST_BLOCKS, HOME_LIVE_BLOCKS } from '../documents.js';
import { useQuery } from '../hooks.js';

const SHOWN = 15;


interface ShardRef {
  workchain: number;
  shard: string;
  seqno: number;
  txCount: number;
}
interface McBlock extends ShardRef {
  genUtime: number;
  shards: ShardRef[] | null;
}

export function HomePage() {
  const q = useQuery<{ blocks: { nodes: (McBlock | null)[] } | null }>(HOME_LATEST_BLOCKS, { n: SHOWN });
  const [live, setLive] = useState<McBlock[]>([]);
  const [liveError, setLiveError] = useState<ExplorerError | null>(null);
  useEffect(
    () =>
      subscribe<{ blocks: McBlock }>(HOME_LIVE_BLOCKS, {}, (d) => {
        setLiveError(null);
        setLive((l) => [d.blocks, ...l].slice(0, SHOWN));
      }, setLiveError),
    [],
  );
  const seen = new Set<number>();
  const blocks = [...live, ...(q.data?.blocks?.nodes ?? [])]
    .filter((b): b is McBlock => b != null && !seen.has(b.seqno) && (seen.add(b.seqno), true))
    .sort((a, b) => b.seqno - a.seqno)
    .slice(0, SHOWN);
  const liveSeqnos = new Set(live.map((b) => b.seqno));
  return (
    <section>
      <h2>
        Latest masterchain blocks <span class={`live${liveError ? ' off' : ''}`}>{liveError ? 'not live' : 'live'}</span>
      </h2>
      {liveError ? <ErrorBox error={liveError} /> : null}
      {q.error ? <ErrorBox error={q.error} /> : <Errors errors={q.errors} />}
      <Cost q={q} />
      {q.loading && !blocks.length ? <Loading /> : null}
      <table class="list blocks">
        <thead>
          <tr>
            <th>block</th>
            <th>time</th>
            <th>transactions</th>
            <th>shard blocks</th>
          </tr>
        </thead>
        <tbody>
          {blocks.map((b) => (
            <tr key={b.seqno} class={liveSeqnos.has(b.seqno) ? 'arrived' : ''} data-seqno={b.seqno}>
              <td>
                <a href={route.block(b.workchain, b.shard, b.seqno)}>{b.seqno}</a>
              </td>
              <td><Time utime={b.genUtime} /></td>
              <td>{b.txCount}</td>
              <td>
                {(b.shards ?? []).map((s) => (
                  <a class="shard" key={`${s.workchain}:${s.shard}:${s.seqno}`} href={route.block(s.workchain, s.shard, s.seqno)}>
                    {s.workchain}:{s.shard.slice(0, 4)}…:{s.seqno} <span class="muted">({s.txCount} tx)</span>
                  </a>
                ))}
                {b.shards && !b.shards.length ? <span class="muted">none</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
