/** A page of transactions as a table, with cursor paging forward and back. */
import { Address, Amount, HashText, Time, route, type AccountRef } from './format.js';


export interface TxRow {
  hash: string;
  lt: string;
  now: number;
  totalFees: string;
  account: AccountRef | null;
  description: { aborted: boolean | null } | null;
  inMessage: { value: string | null; opcode: string | null; decodedOpcode: string | null; comment: string | null; source: AccountRef | null } | null;
  outMessages: { hash: string }[];
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Paging {
  first?: number;
  after?: string;
  last?: number;
  before?: string;
}

export function TxTable({ rows, showAccount = true }: { rows: (TxRow | null)[]; showAccount?: boolean }) {
  const list = rows.filter((r): r is TxRow => r != null);
  if (!list.length) return <p class="muted">No transactions.</p>;
  return (
    <table class="list">
      <thead>
        <tr>
          <th>transaction</th>
          <th>time</th>
          {showAccount ? <th>account</th> : null}
          <th>in</th>
          <th>value</th>
          <th>out</th>
          <th>fees</th>
        </tr>
      </thead>
      <tbody>
        {list.map((t) => (
          <tr key={t.hash} class={t.description?.aborted ? 'aborted' : ''}>
            <td>
              <HashText hash={t.hash} href={route.tx(t.hash)} />
              {t.description?.aborted ? <span class="tag bad">aborted</span> : null}
            </td>
            <td><Time utime={t.now} /></td>
            {showAccount ? <td><Address account={t.account} /></td> : null}
            <td>{t.inMessage ? (t.inMessage.source ? <>{t.inMessage.decodedOpcode ?? t.inMessage.opcode ?? 'transfer'} from <Address account={t.inMessage.source} /></> : 'external') : 'none'}</td>
            <td>{t.inMessage?.value != null ? <Amount value={t.inMessage.value} /> : null}</td>
            <td>{(t.outMessages ?? []).length}</td>
            <td><Amount value={t.totalFees} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Pager({ pageInfo, size, onPage, label }: { pageInfo: PageInfo | null | undefined; size: number; onPage: (p: Paging) => void; label: string }) {
  if (!pageInfo) return null;
  return (
    <div class="pager" role="group" aria-label={label}>
      <button type="button" disabled={!pageInfo.hasPreviousPage || !pageInfo.startCursor} onClick={() => onPage({ last: size, before: pageInfo.startCursor! })}>
        ← newer
      </button>
      <button type="button" disabled={!pageInfo.hasNextPage || !pageInfo.endCursor} onClick={() => onPage({ first: size, after: pageInfo.endCursor! })}>
        older →
      </button>
    </div>
  );
}
