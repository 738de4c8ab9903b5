/**
 * Every GraphQL document the explorer sends, in one file with no JSX and no browser API, so a test can validate
 * them against the schema the gateway builds. Selections shared by several pages are plain strings spliced in.
 */

const ACC = 'address friendly';
const JETTON = `jetton { address content { symbol decimals name } }`;

const ACTION_FIELDS = `
  actionId type success startUtime traceExternalHash detailsJson
  details {
    __typename
    ... on TonTransferDetails { source { ${ACC} } destination { ${ACC} } value comment }
    ... on JettonTransferDetails { sender { ${ACC} } receiver { ${ACC} } amount comment ${JETTON} }
    ... on JettonMintDetails { receiver { ${ACC} } amount ${JETTON} }
    ... on JettonBurnDetails { owner { ${ACC} } amount ${JETTON} }
    ... on NftTransferDetails { oldOwner { ${ACC} } newOwner { ${ACC} } index item { address content { name } } collection { content { name } } }
    ... on NftMintDetails { owner { ${ACC} } index item { address content { name } } collection { content { name } } }
    ... on ContractCallDetails { source { ${ACC} } destination { ${ACC} } value opcode }
  }`;

const TREE_TX_FIELDS = `
  hash now lt
  account { address friendly }
  description { aborted computePhase { skipped success exitCode } }
  inMessage { hash value opcode decodedOpcode bounced source { address friendly } }
  outMessages { hash }`;

const TX_ROW_FIELDS = `hash lt now totalFees account { address friendly }
  description { aborted }
  inMessage { value opcode decodedOpcode comment source { address friendly } }
  outMessages { hash }`;

export const CHECK_ADDRESS = 'query CheckAddress($a: Address!) { account(address: $a) { address } }';

export const FIND_HASH = `query FindHash($h: Hash!) {
  transaction(hash: $h) { hash }
  message(hash: $h) { hash destinationTransaction { hash } sourceTransaction { hash } }
  trace(id: $h) { id traceId }
}`;

const SUMMARY = `workchain shard seqno genUtime txCount shards { workchain shard seqno txCount }`;
export const HOME_LATEST_BLOCKS = `query ExplorerLatestBlocks($n: Int!) { blocks(workchain: -1, first: $n) { nodes { ${SUMMARY} } } }`;
export const HOME_LIVE_BLOCKS = `subscription ExplorerBlocks { blocks { ${SUMMARY} } }`;

export const BLOCK = `query ExplorerBlock($workchain: Int!, $shard: String, $seqno: Int!, $first: Int, $after: String, $last: Int, $before: String) {
  block(workchain: $workchain, shard: $shard, seqno: $seqno) {
    workchain shard seqno rootHash fileHash genUtime startLt endLt txCount globalId version keyBlock
    masterRefSeqno prevKeyBlockSeqno genCatchainSeqno createdBy
    masterchainBlock { workchain shard seqno }
    prevBlocks { workchain shard seqno }
    shards { workchain shard seqno txCount genUtime }
    transactions(first: $first, after: $after, last: $last, before: $before) {
      nodes { ${TX_ROW_FIELDS} }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

const MESSAGE_FIELDS = `hash source { address friendly } destination { address friendly } value fwdFee bounce bounced
  createdAt createdLt opcode decodedOpcode decodedBody comment`;

export const TRANSACTION = `query ExplorerTransaction($hash: Hash!) {
  transaction(hash: $hash) {
    hash lt now totalFees origStatus endStatus mcBlockSeqno traceId
    account { address friendly }
    block { workchain shard seqno }
    description {
      type aborted destroyed creditFirst
      storagePhase { storageFeesCollected statusChange }
      creditPhase { credit }
      computePhase { skipped reason success exitCode exitArg gasUsed gasFees vmSteps }
      actionPhase { success resultCode totActions msgsCreated totalFwdFees totalActionFees }
      bouncePhase { type }
    }
    inMessage { ${MESSAGE_FIELDS} }
    outMessages { ${MESSAGE_FIELDS} }
    trace {
      traceId state isIncomplete transactionCount messageCount startUtime
      transactions { ${TREE_TX_FIELDS} }
      actions { ${ACTION_FIELDS} }
    }
  }
}`;

const CONTENT = 'name symbol description decimals image uri entries { key value }';

export const ACCOUNT_SUMMARY = `query ExplorerAccount($address: Address!) {
  account(address: $address) {
    address friendly balance status interfaces codeHash lastTransactionLt
    wallet { walletType seqno walletId }
    jettonWallets(first: 50) { nodes { address account { friendly } balance jetton { address account { friendly } content { ${CONTENT} } } } }
    nftItems(first: 50) { nodes { address account { friendly } index onSale content { ${CONTENT} } collection { address account { friendly } content { name } } } }
  }
}`;

export const ACCOUNT_TRANSACTIONS = `query ExplorerAccountTransactions($address: Address!, $first: Int, $after: String, $last: Int, $before: String) {
  account(address: $address) {
    transactions(first: $first, after: $after, last: $last, before: $before) {
      nodes { ${TX_ROW_FIELDS} }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

export const ACCOUNT_ACTIONS = `query ExplorerAccountActions($address: Address!, $first: Int, $after: String, $last: Int, $before: String) {
  actions(account: $address, first: $first, after: $after, last: $last, before: $before) {
    nodes { ${ACTION_FIELDS} }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

export const ACCOUNT_LIVE_TRANSACTIONS = `subscription ExplorerAccountLive($accounts: [Address!]!) { transactions(accounts: $accounts) { ${TX_ROW_FIELDS} } }`;
