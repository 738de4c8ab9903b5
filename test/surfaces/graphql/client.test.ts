/**
 * A client written against the committed schema.graphql: typed graphql-request operations, each checked
 * against that file before it runs end to end over the local chain. Also fails when schema.graphql is stale.
 */
import { readFileSync } from 'node:fs';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { SendMode, beginCell, external, internal, storeMessage, toNano, type Address as TonAddress } from '@ton/core';
import type { WalletContractV4 } from '@ton/ton';
import { buildSchema, parse, validate } from 'graphql';
import { GraphQLClient } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printSchemaSDL } from '../../../src/surfaces/graphql/print.js';
import { LocalChain, type KeyedWallet } from '../../../src/sources/localnet/index.js';
import { localV3Api } from '../../../src/sources/localnet/v3/index.js';
import { rawUpper } from '../../../src/model/address.js';
import { rest, startServer, waitFor, type TestServer } from './helpers.js';

const SDL = readFileSync(new URL('../../../schema.graphql', import.meta.url), 'utf8');
const committed = buildSchema(SDL);

/** An operation typed by hand from schema.graphql; it must validate against that file. */
function operation<R, V extends Record<string, unknown> = Record<string, never>>(source: string): TypedDocumentNode<R, V> {
  const doc = parse(source);
  const errors = validate(committed, doc);
  if (errors.length > 0) throw new Error(`operation does not match schema.graphql: ${errors.map((e) => e.message).join('; ')}`);
  return doc as TypedDocumentNode<R, V>;
}

// scalars as they travel: Address, Hash, BigInt and Boc are strings
type Address = string;
type Hash = string;
type BigInt = string;

interface ExploreResult {
  masterchainInfo: {
    last: {
      seqno: number;
      shards: { workchain: number; seqno: number; transactions: { nodes: { hash: Hash; lt: BigInt; account: { address: Address } }[] } }[];
    };
  };
}
const Explore = operation<ExploreResult>(`query Explore {
  masterchainInfo { last { seqno shards { workchain seqno transactions(first: 20) { nodes { hash lt account { address } } } } } }
}`);

interface WalletResult {
  account: { address: Address; friendly: string; balance: BigInt; status: string; wallet: { walletType: string; seqno: number } | null };
}
const Wallet = operation<WalletResult, { address: Address }>(`query Wallet($address: Address!) {
  account(address: $address) { address friendly(bounceable: false) balance status wallet { walletType seqno } }
}`);

interface SendResult {
  sendMessage: { hash: Hash; hashNorm: Hash | null };
}
const Send = operation<SendResult, { boc: string }>(`mutation Send($boc: Boc!) { sendMessage(boc: $boc) { hash hashNorm } }`);

interface LandedResult {
  message: {
    hash: Hash;
    destinationTransaction: {
      hash: Hash;
      outMessages: { value: BigInt; comment: string | null; destination: { address: Address } | null }[];
    } | null;
  } | null;
}
const Landed = operation<LandedResult, { hash: Hash }>(`query Landed($hash: Hash!) {
  message(hash: $hash) { hash destinationTransaction { hash outMessages { value comment destination { address } } } }
}`);

interface SeqnoResult {
  runGetMethod: { exitCode: number; stack: { type: string; number: BigInt | null }[] };
}
const Seqno = operation<SeqnoResult, { address: Address }>(`query Seqno($address: Address!) {
  runGetMethod(address: $address, method: "seqno") { exitCode stack { type number } }
}`);

let chain: LocalChain;
let server: TestServer;
let client: GraphQLClient;

beforeAll(async () => {
  chain = await LocalChain.create({ seed: 'graphql-client-test', blockInterval: 0 });
  server = await startServer({ v2: chain.v2, v3: localV3Api(chain) });
  client = new GraphQLClient(`${server.url}/graphql`);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chain?.close();
});

describe('schema.graphql', () => {
  it('is the schema the server runs (run `npm run schema` when this fails)', () => {
    expect(SDL).toBe(printSchemaSDL());
  });
});

describe('graphql-request client', () => {
  it('explores from the masterchain down to shard transactions', async () => {
    const data = await client.request(Explore);
    const info = await rest(server.url, '/masterchainInfo');
    expect(data.masterchainInfo.last.seqno).toBe(info.last.seqno);
    for (const shard of data.masterchainInfo.last.shards) expect(shard.workchain).toBe(0);
  });

  it('reads a genesis wallet as REST does', async () => {
    const alice = chain.keyedWallets()[0]!;
    const data = await client.request(Wallet, { address: alice.contract.address.toString() });
    const state = await rest(server.url, `/walletStates?address=${rawUpper(alice.contract.address)}`);
    expect(data.account).toEqual({
      address: rawUpper(alice.contract.address),
      friendly: alice.contract.address.toString({ bounceable: false }),
      balance: state.wallets[0].balance,
      status: 'active',
      wallet: { walletType: state.wallets[0].wallet_type, seqno: state.wallets[0].seqno },
    });
  });

  it('sends a transfer with sendMessage and follows it to the transaction it caused', async () => {
    const alice = chain.keyedWallets()[0]!;
    const to = chain.keyedWallets()[1]!.contract.address;
    const boc = await signedTransfer(alice, to, 'hello from graphql');

    const sent = await client.request(Send, { boc });
    expect(sent.sendMessage.hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const landed = await waitFor(async () => {
      const r = await client.request(Landed, { hash: sent.sendMessage.hashNorm ?? sent.sendMessage.hash });
      return r.message?.destinationTransaction ? r : undefined;
    });
    const out = landed.message!.destinationTransaction!.outMessages[0]!;
    expect(out).toEqual({ value: toNano('0.5').toString(), comment: 'hello from graphql', destination: { address: rawUpper(to) } });

    const seqno = await client.request(Seqno, { address: rawUpper(alice.contract.address) });
    expect(seqno.runGetMethod.exitCode).toBe(0);
    expect(Number(seqno.runGetMethod.stack[0]!.number)).toBeGreaterThan(0);
  });
});

async function signedTransfer(wallet: KeyedWallet, to: TonAddress, comment: string): Promise<string> {
  const state = await rest(server.url, `/walletStates?address=${rawUpper(wallet.contract.address)}`);
  // alice is a v4r2 wallet (genesis order)
  const contract = wallet.contract as WalletContractV4;
  const body = contract.createTransfer({
    seqno: state.wallets[0].seqno,
    sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
    secretKey: wallet.keyPair.secretKey,
    messages: [internal({ to, value: toNano('0.5'), body: comment, bounce: false })],
  });
  const msg = external({ to: wallet.contract.address, body });
  return beginCell().store(storeMessage(msg)).endCell().toBoc().toString('base64');
}
