/**
 * @ton/blueprint's CLI against the gateway, as a contract developer runs it: a Blueprint project (a FunC
 * counter, its wrapper and a deploy-and-increase script), `blueprint run --custom … --custom-type testnet
 * --mnemonic` with a genesis v5r1 mnemonic in WALLET_MNEMONIC and WALLET_VERSION=v5r1 and nothing else. Blueprint
 * builds the v5r1 wallet with testnet's network id (-3), which is the local chain's global id by default, so
 * the mnemonic resolves to the funded genesis wallet.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { compileFunc } from '@ton-community/func-js';
import { Address, beginCell, Cell, contractAddress } from '@ton/core';
import { TonClient } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.js';
import { fetchWallets, startTestGateway, waitFor } from '../helpers/gateway.js';

const run = promisify(execFile);

// load_uint, preload_uint and store_uint are FunC built-ins; the rest of stdlib.fc it needs is declared here
const COUNTER_FC = `
cell get_data() asm "c4 PUSH";
() set_data(cell c) impure asm "c4 POP";
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
slice begin_parse(cell c) asm "CTOS";
int slice_bits(slice s) asm "SBITS";

const op::increase = 0x7e8764ef;

() recv_internal(int balance, int value, cell in_msg, slice body) impure {
  if (body.slice_bits() < 32) { return (); }
  int op = body~load_uint(32);
  if (op == op::increase) {
    int by = body~load_uint(32);
    int counter = get_data().begin_parse().preload_uint(64);
    set_data(begin_cell().store_uint(counter + by, 64).end_cell());
  }
}

int counter() method_id {
  return get_data().begin_parse().preload_uint(64);
}
`;

const PROJECT: Record<string, string> = {
  'contracts/counter.fc': COUNTER_FC,
  'wrappers/Counter.compile.ts': `import type { CompilerConfig } from '@ton/blueprint';
export const compile: CompilerConfig = { lang: 'func', targets: ['contracts/counter.fc'] };
`,
  'wrappers/Counter.ts': `import { Address, beginCell, Cell, Contract, contractAddress, ContractProvider, Sender, SendMode } from '@ton/core';

export class Counter implements Contract {
  constructor(readonly address: Address, readonly init?: { code: Cell; data: Cell }) {}

  static createFromCode(code: Cell): Counter {
    const init = { code, data: beginCell().storeUint(0, 64).endCell() };
    return new Counter(contractAddress(0, init), init);
  }

  async sendDeploy(provider: ContractProvider, via: Sender, value: bigint) {
    await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body: beginCell().endCell() });
  }

  async sendIncrease(provider: ContractProvider, via: Sender, value: bigint, by: number) {
    const body = beginCell().storeUint(0x7e8764ef, 32).storeUint(by, 32).endCell();
    await provider.internal(via, { value, sendMode: SendMode.PAY_GAS_SEPARATELY, body });
  }

  async getCounter(provider: ContractProvider): Promise<number> {
    return (await provider.get('counter', [])).stack.readNumber();
  }
}
`,
  'scripts/deployCounter.ts': `import { toNano } from '@ton/core';
import { compile, NetworkProvider, sleep } from '@ton/blueprint';
import { Counter } from '../wrappers/Counter';

export async function run(provider: NetworkProvider) {
  const counter = provider.open(Counter.createFromCode(await compile('Counter')));
  await counter.sendDeploy(provider.sender(), toNano('0.05'));
  await provider.waitForDeploy(counter.address, 20, 500);
  await counter.sendIncrease(provider.sender(), toNano('0.05'), 5);
  // as Blueprint's own counter template waits: until the get-method shows the change
  for (let i = 0; i < 40 && (await counter.getCounter()) === 0; i++) await sleep(500);
  console.log('counter at ' + counter.address.toRawString() + ' = ' + (await counter.getCounter()));
}
`,
  // ts-node (which Blueprint registers) only needs to strip the types
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'es2020', module: 'commonjs', esModuleInterop: true, strict: true, skipLibCheck: true },
    'ts-node': { transpileOnly: true },
  }),
};

let gw: Gateway;
let dir: string;

beforeAll(async () => {
  gw = await startTestGateway();
  dir = mkdtempSync(join(tmpdir(), 'blueprint-e2e-'));
  for (const [path, text] of Object.entries(PROJECT)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // the project uses this checkout's packages (Blueprint, func-js): nothing is downloaded
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
}, 120_000);

afterAll(async () => {
  await gw?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Blueprint CLI on the local chain', () => {
  it('deploys and calls a FunC contract with a genesis v5r1 mnemonic and --custom-type testnet', async () => {
    expect(gw.banner()).toContain('global id -3.');
    const v5 = (await fetchWallets(gw.url)).find((w) => w.version === 'v5r1')!;
    const env: NodeJS.ProcessEnv = { ...process.env, WALLET_MNEMONIC: v5.mnemonic.join(' '), WALLET_VERSION: 'v5r1' };
    for (const name of ['WALLET_ID', 'SUBWALLET_NUMBER', 'WALLET_NETWORK_ID']) delete env[name];
    const args = ['blueprint', 'run', 'deployCounter', '--custom', `${gw.url}/api/v2/jsonRPC`];
    args.push('--custom-version', 'v2', '--custom-type', 'testnet', '--mnemonic');
    const { stdout } = await run('npx', args, { cwd: dir, env, timeout: 150_000 });

    // Blueprint signed with the genesis wallet itself
    expect(stdout).toContain(`Connected to wallet at address: ${Address.parse(v5.address).toString({ testOnly: true, bounceable: false })}`);
    const compiled = await compileFunc({ targets: ['counter.fc'], sources: { 'counter.fc': COUNTER_FC } });
    if (compiled.status === 'error') throw new Error(compiled.message);
    const code = Cell.fromBase64(compiled.codeBoc);
    const address = contractAddress(0, { code, data: beginCell().storeUint(0, 64).endCell() });
    expect(stdout).toContain(`counter at ${address.toRawString()} = 5`);

    const client = new TonClient({ endpoint: `${gw.url}/api/v2/jsonRPC` });
    const state = await client.getContractState(address);
    expect(state.state).toBe('active');
    expect(Cell.fromBoc(state.code!)[0]!.equals(code)).toBe(true);
    const counter = await waitFor(async () => {
      const n = (await client.runMethod(address, 'counter')).stack.readNumber();
      return n === 5 ? n : undefined;
    }, 10_000);
    expect(counter).toBe(5);
  }, 180_000);
});
