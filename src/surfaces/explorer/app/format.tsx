/** What every page shows the same way: addresses with a copy button, amounts in units, local times, errors. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ExplorerError, UpstreamCost } from './gql.js';
import { imitatesToncoin } from './onchain-text.js';
import { OnChainText } from './text.js';

export interface AccountRef {
  address: string;
  friendly?: string | null;
}

export const route = {
  account: (address: string) => `#/account/${encodeURIComponent(address)}`,
  tx: (hash: string) => `#/tx/${encodeURIComponent(hash)}`,
  block: (workchain: number, shard: string, seqno: number) => `#/block/${workchain}:${shard}:${seqno}`,
};

/** `1500000000000` with 9 decimals is `1,500`; the fraction keeps its significant digits only. */
export function formatUnits(value: string | bigint, decimals: number): string {
  let v = BigInt(value);
  const negative = v < 0n;
  if (negative) v = -v;
  const base = 10n ** BigInt(decimals);
  const whole = (v / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals > 0 ? (v % base).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function Amount({ value, decimals = 9, symbol = 'TON' }: { value: string | null | undefined; decimals?: number | null; symbol?: ComponentChildren }) {
  if (value == null) return <span class="muted">—</span>;
  const d = decimals ?? 9;
  return (
    <span class="amount" title={`${value} (smallest units, ${d} decimals)`}>
      {formatUnits(value, d)} {symbol ?? ''}
    </span>
  );
}

/** A jetton as the pages read it: its master's address and its on-chain content. */
export interface JettonRef {
  address: string;
  account?: { friendly: string } | null;
  content: { symbol?: string | null; name?: string | null; decimals?: number | null } | null;
}

/** A jetton's symbol is short; a longer one is cut like any long on-chain text. */
const SYMBOL_LIMIT = 24;

/**
 * An amount of a jetton in its units and symbol (hidden characters shown), followed, when the jetton passes itself
 * off as Toncoin, by a "not Toncoin" mark and its master's address.
 */
export function JettonAmount({ amount, jetton }: { amount: string | null | undefined; jetton: JettonRef | null | undefined }) {
  return (
    <>
      <Amount value={amount} decimals={jetton?.content?.decimals ?? 9} symbol={jettonSymbol(jetton, 'jettons')} />
      {jetton && imitatesToncoin(jetton.content) ? <NotToncoin master={jetton} /> : null}
    </>
  );
}

/** A jetton's symbol as on-chain text, or the fallback when it has none. */
export function jettonSymbol(jetton: JettonRef | null | undefined, fallback: string): ComponentChildren {
  const symbol = jetton?.content?.symbol;
  return symbol != null ? <OnChainText text={symbol} limit={SYMBOL_LIMIT} /> : fallback;
}

/** The mark on a jetton named or symbolled like Toncoin: it is not Toncoin, and here is the contract it comes from. */
export function NotToncoin({ master }: { master?: JettonRef }) {
  return (
    <span class="not-toncoin">
      <span class="tag bad" title="This jetton's name or symbol imitates Toncoin (TON), the chain's own coin. It is a token issued by the contract shown.">
        not Toncoin
      </span>
      {master ? <>jetton <Address account={{ address: master.address, friendly: master.account?.friendly }} /></> : null}
    </span>
  );
}

export function short(s: string, keep = 6): string {
  return s.length > keep * 2 + 1 ? `${s.slice(0, keep)}…${s.slice(-keep)}` : s;
}

export function CopyButton({ text }: { text: string }) {
  const [done, setDone] = useState(false);
  const copy = async (e: Event) => {
    e.preventDefault();
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1200);
    } catch {
      window.prompt('Copy:', text);
    }
  };
  return (
    <button type="button" class="copy" title="Copy" aria-label="Copy" onClick={copy}>
      {done ? (
        'copied'
      ) : (
        <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.5" />
          <path d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5" fill="none" stroke="currentColor" stroke-width="1.5" />
        </svg>
      )}
    </button>
  );
}

/** A user-friendly address linking to its page; `full` shows it whole, else shortened with the whole on hover. */
export function Address({ account, full = false }: { account: AccountRef | null | undefined; full?: boolean }) {
  if (!account) return <span class="muted">none</span>;
  const text = account.friendly ?? account.address;
  return (
    <span class="address">
      <a href={route.account(account.address)} title={`${text}\n${account.address}`}>
        {full ? text : short(text)}
      </a>
      <CopyButton text={text} />
    </span>
  );
}

export function HashText({ hash, href }: { hash: string | null | undefined; href?: string }) {
  if (!hash) return <span class="muted">—</span>;
  return (
    <span class="hash">
      {href ? <a href={href} title={hash}>{short(hash, 8)}</a> : <span title={hash}>{short(hash, 8)}</span>}
      <CopyButton text={hash} />
    </span>
  );
}

export function Time({ utime }: { utime: number | null | undefined }) {
  if (utime == null) return <span class="muted">—</span>;
  const d = new Date(utime * 1000);
  return <time dateTime={d.toISOString()} title={`unix ${utime}`}>{d.toLocaleString()}</time>;
}

export function ErrorBox({ error }: { error: ExplorerError | Error }) {
  return (
    <div class="error" role="alert">
      {error.message}
    </div>
  );
}

export function Errors({ errors }: { errors: (ExplorerError | Error)[] }) {
  return <>{errors.map((e, i) => <ErrorBox key={i} error={e} />)}</>;
}

/** Small print: what the shown data cost the gateway's upstream (upstream mode only), and whether more is coming. */
export function Cost({ q }: { q: { cost: UpstreamCost | null; filling: boolean } }) {
  const c = q.cost;
  if (!c?.budget) return null;
  const waited = c.waitedMs >= 100 ? `, ${(c.waitedMs / 1000).toFixed(1)} s queued` : '';
  const pace = c.budget.rps ? ` at ${c.budget.rps}/s` : '';
  return (
    <p class="small muted cost" title={Object.entries(c.byRoute).map(([r, n]) => `${r}: ${n}`).join('\n')}>
      upstream: {c.calls} call{c.calls === 1 ? '' : 's'}{pace}, {c.cacheHits} from cache{waited}
      {q.filling ? ' · filling in the rest…' : ''}
    </p>
  );
}

export function Loading() {
  return <div class="loading">Loading…</div>;
}

/** A key–value table of header fields. */
export function Fields({ rows }: { rows: [string, preact.ComponentChildren][] }) {
  return (
    <table class="fields">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <th>{k}</th>
            <td>{v ?? <span class="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
