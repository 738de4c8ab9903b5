/**
 * A trace drawn as a tree: one node per transaction (its account), one edge per message from the transaction that
 * sent it to the one that received it, labelled with value and opcode name. Built from the trace's flat
 * transaction list (a transaction's parent is the one whose out-messages hold its in-message), so the drawing
 * needs no recursive query.
 */
import { formatUnits, route, short, type AccountRef } from './format.js';


export interface TreeTx {
  hash: string;
  lt: string;
  account: AccountRef | null;
  description: { aborted: boolean | null; computePhase: { skipped: boolean; success: boolean | null; exitCode: number | null } | null } | null;
  inMessage: { hash: string; value: string | null; opcode: string | null; decodedOpcode: string | null; bounced: boolean | null; source: AccountRef | null } | null;
  outMessages: { hash: string }[];
}

interface Node {
  tx: TreeTx;
  children: Node[];
  depth: number;
  row: number;
}

// drawn top-down: depth grows downwards, siblings side by side
const W = 180;
const H = 46;
const DX = 200;
const DY = 104;
const LABEL = 160;
const PAD = 16;

/** Roots first (normally one), children in lt order. */
export function buildForest(txs: TreeTx[]): Node[] {
  const byOutMessage = new Map<string, TreeTx>();
  for (const tx of txs) for (const m of tx.outMessages ?? []) byOutMessage.set(m.hash, tx);
  const nodes = new Map(txs.map((tx) => [tx.hash, { tx, children: [] as Node[], depth: 0, row: 0 }]));
  const roots: Node[] = [];
  for (const node of [...nodes.values()].sort((a, b) => (BigInt(a.tx.lt) < BigInt(b.tx.lt) ? -1 : 1))) {
    const parent = node.tx.inMessage ? byOutMessage.get(node.tx.inMessage.hash) : undefined;
    const parentNode = parent && parent.hash !== node.tx.hash ? nodes.get(parent.hash) : undefined;
    if (parentNode) parentNode.children.push(node);
    else roots.push(node);
  }
  let nextRow = 0;
  const place = (n: Node, depth: number): void => {
    n.depth = depth;
    if (!n.children.length) n.row = nextRow++;
    else {
      for (const c of n.children) place(c, depth + 1);
      n.row = (n.children[0]!.row + n.children[n.children.length - 1]!.row) / 2;
    }
  };
  for (const r of roots) place(r, 1);
  return roots;
}

function isAborted(tx: TreeTx): boolean {
  return tx.description?.aborted === true || tx.description?.computePhase?.success === false;
}

/** Above the edge the value, below it the opcode's name (its hex when the source did not decode it). */
function edgeLabel(tx: TreeTx): [string, string] {
  const m = tx.inMessage;
  if (!m) return ['', ''];
  const op = m.decodedOpcode ?? (m.opcode ? m.opcode : m.source ? 'empty body' : 'external');
  const value = m.value != null && m.source ? `${formatUnits(m.value, 9)} TON` : '';
  return [value, m.bounced ? `${op} (bounced)` : op];
}

export function TraceTree({ transactions, current }: { transactions: TreeTx[]; current?: string }) {
  const roots = buildForest(transactions.filter((t) => t != null));
  const all: Node[] = [];
  const walk = (n: Node): void => {
    all.push(n);
    n.children.forEach(walk);
  };
  roots.forEach(walk);
  if (!all.length) return <p class="muted">No transactions in this trace yet.</p>;
  const x = (n: Node) => PAD + n.row * DX;
  const y = (n: Node) => PAD + n.depth * DY;
  // the last column's edge labels run to the right of its nodes
  const width = PAD * 2 + (Math.max(...all.map((n) => n.row)) + 1) * DX - (DX - W) + LABEL;
  const height = PAD * 2 + (Math.max(...all.map((n) => n.depth)) + 1) * DY - (DY - H);
  const edges: preact.JSX.Element[] = [];
  const boxes: preact.JSX.Element[] = [];
  for (const n of all) {
    const parentOf = all.find((p) => p.children.includes(n));
    // a root's in-message comes from outside the trace (an external message, or a sender not in it)
    const x1 = (parentOf ? x(parentOf) : x(n)) + W / 2;
    const y1 = parentOf ? y(parentOf) + H : y(n) - DY + H;
    const x2 = x(n) + W / 2;
    const y2 = y(n);
    const mid = (y1 + y2) / 2;
    const [value, op] = edgeLabel(n.tx);
    edges.push(
      <g class="edge" key={`e${n.tx.hash}`}>
        <path d={`M${x1},${y1} C${x1},${mid} ${x2},${mid} ${x2},${y2}`} marker-end="url(#arrow)" />
        <text x={x2 + 6} y={y2 - 22}>{value}</text>
        <text x={x2 + 6} y={y2 - 8} class="op">{op}</text>
      </g>,
    );
    const aborted = isAborted(n.tx);
    const name = n.tx.account?.friendly ?? n.tx.account?.address ?? 'unknown account';
    boxes.push(
      <a href={route.tx(n.tx.hash)} key={n.tx.hash} class={`node${aborted ? ' aborted' : ''}${n.tx.hash === current ? ' current' : ''}`} data-tx={n.tx.hash}>
        <title>{`${name}\ntransaction ${n.tx.hash}${aborted ? '\naborted' : ''}`}</title>
        <rect x={x(n)} y={y(n)} width={W} height={H} rx={6} />
        <text x={x(n) + 10} y={y(n) + 19}>{short(name, 8)}</text>
        <text x={x(n) + 10} y={y(n) + 36} class="sub">
          {aborted ? `aborted${n.tx.description?.computePhase?.exitCode != null ? ` (exit ${n.tx.description.computePhase.exitCode})` : ''}` : `lt ${n.tx.lt}`}
        </text>
      </a>,
    );
  }
  for (const r of roots) {
    boxes.push(
      <text key={`src${r.tx.hash}`} x={x(r) + W / 2} y={y(r) - DY + H - 4} text-anchor="middle" class="origin">
        {r.tx.inMessage?.source ? `from ${short(r.tx.inMessage.source.friendly ?? r.tx.inMessage.source.address, 6)}` : 'external message'}
      </text>,
    );
  }
  return (
    <div class="tree-scroll">
      <svg class="trace-tree" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="trace tree">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" />
          </marker>
        </defs>
        {edges}
        {boxes}
      </svg>
    </div>
  );
}
