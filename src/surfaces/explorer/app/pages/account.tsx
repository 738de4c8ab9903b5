/**
 * An account: balance, state, wallet type, jetton balances, NFTs with their metadata, and its transactions and
 * actions paged; its new transactions arrive through the `transactions(accounts)` subscription.
 */
import { useEffect, useState } from 'preact/hooks';
import { ActionList, type Action } from '../actions.js';
import { ACCOUNT_ACTIONS, ACCOUNT_LIVE_TRANSACTIONS, ACCOUNT_SUMMARY, ACCOUNT_TRANSACTIONS } from '../documents.js';
import { Address, Amount, ErrorBox, Errors, Fields, HashText, jettonSymbol, Loading, NotToncoin, route, type AccountRef, Cost } from '../format.js';
import { type ExplorerError, subscribe } from '../gql.js';
import { useQuery } from '../hooks.js';
import { imitatesToncoin, visible } from '../onchain-text.js';
import { OnChainText } from '../text.js';
import { Pager, TxTable, type PageInfo, type Paging, type TxRow } from '../tx-table.js';

const PAGE = 20;
const ACTION_PAGE = 10;


interface Content {
  name: string | null;
  symbol: string | null;
  description: string | null;
  decimals: number | null;
  image: string | null;
  uri: string | null;
  entries: { key: string; value: string }[] | null;
}

type Friendly = { friendly: string } | null;

interface Account extends AccountRef {
  balance: string | null;
  status: string | null;
  interfaces: string[] | null;
  codeHash: string | null;
  lastTransactionLt: string | null;
  wallet: { walletType: string | null; seqno: number | null; walletId: string | null } | null;
  jettonWallets: { nodes: ({ address: string; account: Friendly; balance: string; jetton: { address: string; account: Friendly; content: Content | null } | null } | null)[] } | null;
  nftItems: {
    nodes: ({ address: string; account: Friendly; index: string; onSale: boolean | null; content: Content | null; collection: { address: string; account: Friendly; content: { name: string | null } | null } | null } | null)[];
  } | null;
}

/** Only images the page can show without leaving the gateway: inline data. Others are shown as their address. */
function NftImage({ src }: { src: string | null | undefined }) {
  if (!src) return null;
  if (src.startsWith('data:image/')) return <img src={src} alt="" />;
  return <div class="muted small" title="not loaded: the explorer makes no request outside the gateway">image: <OnChainText text={src} /></div>;
}

function Jettons({ account }: { account: Account }) {
  const rows = (account.jettonWallets?.nodes ?? []).filter((w) => w != null);
  if (!rows.length) return <p class="muted">No jetton wallets.</p>;
  return (
    <table class="list jettons">
      <thead>
        <tr>
          <th>jetton</th>
          <th>balance</th>
          <th>wallet</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((w) => (
          <tr key={w!.address}>
            <td>
              {w!.jetton?.content?.name != null ? <OnChainText text={w!.jetton.content.name} /> : 'unnamed jetton'}{' '}
              {w!.jetton ? <Address account={{ address: w!.jetton.address, friendly: w!.jetton.account?.friendly }} /> : null}
              {imitatesToncoin(w!.jetton?.content) ? <NotToncoin /> : null}
            </td>
            <td>
              <Amount value={w!.balance} decimals={w!.jetton?.content?.decimals ?? 9} symbol={jettonSymbol(w!.jetton, '')} />
            </td>
            <td>
              <Address account={{ address: w!.address, friendly: w!.account?.friendly }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Nfts({ account }: { account: Account }) {
  const items = (account.nftItems?.nodes ?? []).filter((n) => n != null);
  if (!items.length) return <p class="muted">No NFTs.</p>;
  return (
    <div class="cards nfts">
      {items.map((n) => (
        <div class="card nft" key={n!.address}>
          <h4>{n!.content?.name != null ? <OnChainText text={n!.content.name} /> : `item #${n!.index}`}</h4>
          <NftImage src={n!.content?.image} />
          <Fields
            rows={[
              ['collection', n!.collection ? <><OnChainText text={n!.collection.content?.name} /> <Address account={{ address: n!.collection.address, friendly: n!.collection.account?.friendly }} /></> : 'none'],
              ['index', n!.index],
              ['item', <Address account={{ address: n!.address, friendly: n!.account?.friendly }} />],
              ['description', n!.content?.description != null ? <OnChainText text={n!.content.description} /> : null],
              ...(n!.content?.entries ?? [])
                .filter((e) => !['name', 'description', 'image'].includes(e.key))
                .map((e) => [visible(e.key), <OnChainText text={e.value} />] as [string, preact.ComponentChildren]),
              ['on sale', n!.onSale == null ? null : n!.onSale ? 'yes' : 'no'],
            ]}
          />
        </div>
      ))}
    </div>
  );
}

function Transactions({ address, live }: { address: string; live: TxRow[] }) {
  const [paging, setPaging] = useState<Paging>({ first: PAGE });
  const q = useQuery<{ account: { transactions: { nodes: (TxRow | null)[]; pageInfo: PageInfo } | null } | null }>(ACCOUNT_TRANSACTIONS, { address, ...paging });
  const onFirstPage = !paging.after && !paging.before;
  const fetched = q.data?.account?.transactions?.nodes ?? [];
  const known = new Set(fetched.map((t) => t?.hash));
  const rows = onFirstPage ? [...live.filter((t) => !known.has(t.hash)), ...fetched] : fetched;
  return (
    <>
      {q.error ? <ErrorBox error={q.error} /> : <Errors errors={q.errors} />}
      <Cost q={q} />
      {q.loading && !q.data ? <Loading /> : <TxTable rows={rows} showAccount={false} />}
      <Pager pageInfo={q.data?.account?.transactions?.pageInfo} size={PAGE} onPage={setPaging} label="transaction pages" />
    </>
  );
}

function Actions({ address, version }: { address: string; version: number }) {
  const [paging, setPaging] = useState<Paging>({ first: ACTION_PAGE });
  const q = useQuery<{ actions: { nodes: (Action | null)[]; pageInfo: PageInfo } | null }>(ACCOUNT_ACTIONS, { address, ...paging });
  // new transactions may complete new actions: the first page is read again
  useEffect(() => {
    if (version > 0 && !paging.after && !paging.before) q.reload();
  }, [version]);
  return (
    <>
      {q.error ? <ErrorBox error={q.error} /> : <Errors errors={q.errors} />}
      <Cost q={q} />
      {q.loading && !q.data ? <Loading /> : <ActionList actions={q.data?.actions?.nodes} />}
      <Pager pageInfo={q.data?.actions?.pageInfo} size={ACTION_PAGE} onPage={setPaging} label="action pages" />
    </>
  );
}

export function AccountPage({ address }: { address: string }) {
  const q = useQuery<{ account: Account | null }>(ACCOUNT_SUMMARY, { address });
  const [live, setLive] = useState<TxRow[]>([]);
  const [liveError, setLiveError] = useState<ExplorerError | null>(null);
  const reload = q.reload;
  useEffect(() => {
    setLive([]);
    return subscribe<{ transactions: TxRow }>(ACCOUNT_LIVE_TRANSACTIONS, { accounts: [address] }, (d) => {
      setLiveError(null);
      setLive((l) => [d.transactions, ...l]);
      reload();
    }, setLiveError);
  }, [address, reload]);
  if (q.error) return <ErrorBox error={q.error} />;
  if (q.loading && !q.data) return <Loading />;
  const a = q.data?.account;
  if (!a) return <ErrorBox error={new Error(`No account at ${address}.`)} />;
  return (
    <section>
      <Errors errors={q.errors} />
      <Cost q={q} />
      <h2>
        Account <span class={`live${liveError ? ' off' : ''}`}>{liveError ? 'not live' : 'live'}</span>
      </h2>
      {liveError ? <ErrorBox error={liveError} /> : null}
      <Fields
        rows={[
          ['address', <Address account={a} full />],
          ['raw', <span class="mono">{a.address}</span>],
          ['balance', <Amount value={a.balance} />],
          ['state', a.status],
          ['wallet', a.wallet?.walletType ? `${a.wallet.walletType}${a.wallet.seqno != null ? `, seqno ${a.wallet.seqno}` : ''}` : 'not a known wallet'],
          ['interfaces', a.interfaces?.length ? a.interfaces.join(', ') : null],
          ['code hash', <HashText hash={a.codeHash} />],
        ]}
      />
      <h3>Jettons</h3>
      <Jettons account={a} />
      <h3>NFTs</h3>
      <Nfts account={a} />
      <h3>Actions</h3>
      <Actions address={a.address} version={live.length} />
      <h3>Transactions</h3>
      <Transactions address={a.address} live={live} />
      <p class="muted">
        <a href={route.account(a.address)}>permalink</a>
      </p>
    </section>
  );
}
