/**
 * A trace's actions in words. The common families get a sentence; any other type (the union grows) shows its
 * type and the generic `detailsJson`, so a new action type never breaks the page.
 */
import type { ComponentChildren } from 'preact';
import { Address, Amount, JettonAmount, type AccountRef, type JettonRef } from './format.js';
import { visible } from './onchain-text.js';
import { OnChainText } from './text.js';

interface Nft {
  index?: string | null;
  item?: { address: string; content: { name: string | null } | null } | null;
  collection?: { content: { name: string | null } | null } | null;
}

export type ActionDetails =
  | { __typename: 'TonTransferDetails'; source: AccountRef | null; destination: AccountRef | null; value: string | null; comment: string | null }
  | { __typename: 'JettonTransferDetails'; sender: AccountRef | null; receiver: AccountRef | null; amount: string | null; comment: string | null; jetton: JettonRef | null }
  | { __typename: 'JettonMintDetails'; receiver: AccountRef | null; amount: string | null; jetton: JettonRef | null }
  | { __typename: 'JettonBurnDetails'; owner: AccountRef | null; amount: string | null; jetton: JettonRef | null }
  | ({ __typename: 'NftTransferDetails'; oldOwner: AccountRef | null; newOwner: AccountRef | null } & Nft)
  | ({ __typename: 'NftMintDetails'; owner: AccountRef | null } & Nft)
  | { __typename: 'ContractCallDetails'; source: AccountRef | null; destination: AccountRef | null; value: string | null; opcode: string | null }
  | { __typename: string };

export interface Action {
  actionId: string;
  type: string;
  success: boolean | null;
  startUtime: number;
  traceExternalHash: string | null;
  detailsJson: string;
  details: ActionDetails | null;
}

function nftName(n: Nft): ComponentChildren {
  const name = n.item?.content?.name;
  const item = name != null ? <OnChainText text={name} /> : n.index != null ? `item #${n.index}` : 'an NFT';
  const collection = n.collection?.content?.name;
  return collection ? <>{item} (<OnChainText text={collection} />)</> : item;
}

const Comment = ({ text }: { text: string | null }) => (text ? <> with comment “<OnChainText text={text} />”</> : null);

function sentence(d: ActionDetails | null): ComponentChildren | null {
  if (!d) return null;
  switch (d.__typename) {
    case 'TonTransferDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'TonTransferDetails' }>;
      return <><Address account={t.source} /> sent <Amount value={t.value} /> to <Address account={t.destination} /><Comment text={t.comment} /></>;
    }
    case 'JettonTransferDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'JettonTransferDetails' }>;
      return <><Address account={t.sender} /> sent <JettonAmount amount={t.amount} jetton={t.jetton} /> to <Address account={t.receiver} /><Comment text={t.comment} /></>;
    }
    case 'JettonMintDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'JettonMintDetails' }>;
      return <><JettonAmount amount={t.amount} jetton={t.jetton} /> minted to <Address account={t.receiver} /></>;
    }
    case 'JettonBurnDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'JettonBurnDetails' }>;
      return <><Address account={t.owner} /> burnt <JettonAmount amount={t.amount} jetton={t.jetton} /></>;
    }
    case 'NftTransferDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'NftTransferDetails' }>;
      return <><Address account={t.oldOwner} /> gave {nftName(t)} to <Address account={t.newOwner} /></>;
    }
    case 'NftMintDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'NftMintDetails' }>;
      return <>{nftName(t)} minted for <Address account={t.owner} /></>;
    }
    case 'ContractCallDetails': {
      const t = d as Extract<ActionDetails, { __typename: 'ContractCallDetails' }>;
      return <><Address account={t.source} /> called <Address account={t.destination} />{t.opcode ? <> (op {t.opcode})</> : null} with <Amount value={t.value} /></>;
    }
    default:
      return null;
  }
}

export function ActionRow({ action }: { action: Action }) {
  const words = sentence(action.details);
  return (
    <li class={`action${action.success === false ? ' failed' : ''}`}>
      <span class="tag">{action.type}</span>
      {action.success === false ? <span class="tag bad">failed</span> : null}{' '}
      {words ?? <span class="muted">no summary for this action type</span>}
      <details>
        <summary>details</summary>
        <pre>{prettyJson(action.detailsJson)}</pre>
      </details>
    </li>
  );
}

/** JSON indented for reading, its hidden characters shown as code points (JSON.stringify leaves them raw). */
export function prettyJson(text: string | null | undefined): string {
  if (text == null) return '';
  try {
    return visible(JSON.stringify(JSON.parse(text), null, 2));
  } catch {
    return visible(text);
  }
}

export function ActionList({ actions }: { actions: (Action | null)[] | null | undefined }) {
  const list = (actions ?? []).filter((a): a is Action => a != null);
  if (!list.length) return <p class="muted">No actions.</p>;
  return <ul class="actions">{list.map((a) => <ActionRow key={a.actionId} action={a} />)}</ul>;
}
