/**
 * The explorer: a single page over the public /graphql endpoint, routed by the URL's hash
 * (#/account/…, #/tx/…, #/block/wc:shard:seqno), so the gateway serves one HTML page for every view.
 */
import { render } from 'preact';
import { useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { ErrorBox } from './format.js';
import { ExplorerError } from './gql.js';
import { AccountPage } from './pages/account.js';
import { BlockPage } from './pages/block.js';
import { HomePage } from './pages/home.js';
import { TransactionPage } from './pages/transaction.js';
import { resolveSearch } from './search.js';
import './style.css';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash;
}

function SearchBox({ onError }: { onError: (e: ExplorerError | null) => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    onError(null);
    try {
      const target = await resolveSearch(text);
      setText('');
      location.hash = target;
    } catch (err) {
      onError(err instanceof ExplorerError ? err : new ExplorerError(String(err), 'ERROR'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="search" onSubmit={submit} role="search">
      <input
        name="q"
        value={text}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        placeholder="Address, transaction / message hash, block (wc:shard:seqno) or trace id"
        aria-label="Search"
        spellcheck={false}
        autocomplete="off"
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Searching…' : 'Search'}
      </button>
    </form>
  );
}

/** A page that throws while rendering shows the error instead of leaving the screen blank. */
function Guarded({ hash }: { hash: string }) {
  const [error, reset] = useErrorBoundary();
  useEffect(() => reset(), [hash]);
  if (error) return <ErrorBox error={new Error(`This page could not be shown: ${error instanceof Error ? error.message : String(error)}`)} />;
  return <Page hash={hash} />;
}

function Page({ hash }: { hash: string }) {
  const [kind, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const arg = decodeURIComponent(rest.join('/'));
  switch (kind) {
    case '':
    case undefined:
      return <HomePage />;
    case 'account':
      return <AccountPage key={arg} address={arg} />;
    case 'tx':
      return <TransactionPage key={arg} hash={arg} />;
    case 'block': {
      const m = /^(-?\d+):([0-9A-Fa-f]{16}):(\d+)$/.exec(arg);
      if (!m) return <ErrorBox error={new Error(`"${arg}" is not a block (workchain:shard:seqno).`)} />;
      return <BlockPage key={arg} workchain={Number(m[1])} shard={m[2]!.toUpperCase()} seqno={Number(m[3])} />;
    }
    default:
      return <ErrorBox error={new Error(`There is no page "${hash}".`)} />;
  }
}

function App() {
  const hash = useHash();
  const [searchError, setSearchError] = useState<ExplorerError | null>(null);
  useEffect(() => setSearchError(null), [hash]);
  return (
    <>
      <header>
        <a class="brand" href="#/">
          TON explorer
        </a>
        <SearchBox onError={setSearchError} />
        <a class="graphiql" href="/graphql" title="the GraphQL endpoint this page reads">
          GraphQL
        </a>
      </header>
      <main>
        {searchError ? <ErrorBox error={searchError} /> : null}
        <Guarded hash={hash} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
