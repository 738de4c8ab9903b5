import { createRequire } from 'node:module';
import { Address, beginCell, Cell, TupleBuilder, type TupleItem } from '@ton/core';
import { TonClient } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import {
  hexNumber,
  parseLegacyStack,
  parseStdStack,
  StackError,
  stackArgsToTuple,
  tupleToLegacy,
  tupleToStd,
} from '../../src/model/stack.js';
import {
  CHAIN_SIZE_LIMITS,
  NODE_DEFAULT_SIZE_LIMITS,
  checkBoc,
  checkBocText,
  checkMethodRef,
  loadSizeLimits,
  messageLimits,
  readBocHeader,
} from '../../src/model/limits.js';

const require = createRequire(import.meta.url);
// tonweb's own response parser (CommonJS): ['num', v] is read as hex with the 0x stripped
const HttpProviderUtils = require('tonweb/src/providers/HttpProviderUtils.js').default as {
  parseResponseStack(pair: unknown[]): unknown;
};

const cellA = beginCell().storeUint(0xabc, 12).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
const addr = Address.parse('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');
const addrSlice = beginCell().storeAddress(addr).endCell();
const b64 = (c: Cell) => c.toBoc().toString('base64');

/** Sends `args` through TonClient as a request and answers with `reply(parsed)` in the legacy form. */
async function throughTonClient(args: TupleItem[], reply: (parsed: TupleItem[]) => TupleItem[]) {
  const client = new TonClient({ endpoint: 'http://127.0.0.1:9/jsonRPC' });
  let sent: unknown;
  (client as unknown as { api: { doCall: unknown } }).api.doCall = async (method: string, params: { stack: unknown }) => {
    expect(method).toBe('runGetMethod');
    sent = JSON.parse(JSON.stringify(params.stack)); // what goes over the wire
    const parsed = stackArgsToTuple(parseLegacyStack(sent));
    return { gas_used: 1, exit_code: 0, stack: JSON.parse(JSON.stringify(tupleToLegacy(reply(parsed)))) };
  };
  const res = await client.runMethod(addr, 'm', args);
  return { sent, reader: res.stack };
}

describe('legacy stack with @ton/ton TonClient', () => {
  it('round-trips ints, cells, slices, builders through request and response', async () => {
    const args: TupleItem[] = [
      { type: 'int', value: 7n },
      { type: 'int', value: -(2n ** 255n) },
      { type: 'cell', cell: cellA },
      { type: 'slice', cell: addrSlice },
      { type: 'builder', cell: cellA },
    ];
    const { sent, reader } = await throughTonClient(args, (p) => p);
    expect((sent as unknown[][]).map((e) => e[0])).toEqual(['num', 'num', 'tvm.Cell', 'tvm.Slice', 'tvm.Builder']);
    expect(reader.readBigNumber()).toBe(7n);
    expect(reader.readBigNumber()).toBe(-(2n ** 255n));
    expect(reader.readCell().equals(cellA)).toBe(true);
    expect(reader.readAddress().equals(addr)).toBe(true); // slice comes back as "cell", which TupleReader accepts
    expect(reader.readCell().equals(cellA)).toBe(true);
  });

  it('tuples, lists and null come back in the shapes TonClient reads', async () => {
    const inner: TupleItem = { type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'int', value: 2n }, { type: 'int', value: 3n }] };
    const lisp: TupleItem = { type: 'tuple', items: [{ type: 'int', value: 10n }, { type: 'tuple', items: [{ type: 'int', value: 20n }, { type: 'null' }] }] };
    const { reader } = await throughTonClient([], () => [inner, lisp, { type: 'null' }]);
    // TonClient maps tuple elements to bare values (bigint, Cell, arrays), not TupleItems: check what it built
    expect(reader.pop()).toEqual({ type: 'tuple', items: [1n, 2n, 3n] });
    expect(reader.pop()).toEqual({ type: 'tuple', items: [10n, 20n] }); // toncenter flattens a lisp list into ["list", …]
    expect(reader.readTupleOpt()).toBeNull(); // null is an empty list, which TonClient reads as null
  });
});

describe('legacy stack output format (v2.md §5.2)', () => {
  it('numbers are 0x / -0x lowercase hex', () => {
    expect(tupleToLegacy([{ type: 'int', value: 0n }, { type: 'int', value: 255n }, { type: 'int', value: -1n }])).toEqual([
      ['num', '0x0'],
      ['num', '0xff'],
      ['num', '-0x1'],
    ]);
    expect(hexNumber(698983191n)).toBe('0x29a9a317');
  });

  it('cell and slice print as "cell" with bytes and object', () => {
    const [c, s] = tupleToLegacy([{ type: 'cell', cell: cellA }, { type: 'slice', cell: cellA }]);
    expect(c).toEqual(s);
    expect(c).toEqual([
      'cell',
      {
        bytes: b64(cellA),
        object: {
          data: { b64: Buffer.from([0xab, 0xc8]).toString('base64'), len: 12 }, // data bits + completion tag
          refs: [{ data: { b64: Buffer.from([0xc0]).toString('base64'), len: 1 }, refs: [], special: false }],
          special: false,
        },
      },
    ]);
  });

  it('tuple, list and null use tvm.tuple / tvm.list with Std elements', () => {
    const out = tupleToLegacy([
      { type: 'tuple', items: [{ type: 'int', value: 5n }, { type: 'slice', cell: cellA }] },
      { type: 'null' },
      { type: 'tuple', items: [] },
    ]);
    expect(out).toEqual([
      [
        'tuple',
        {
          '@type': 'tvm.tuple',
          elements: [
            { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '5' } },
            { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: b64(cellA) } },
          ],
        },
      ],
      ['list', { '@type': 'tvm.list', elements: [] }],
      ['tuple', { '@type': 'tvm.tuple', elements: [] }],
    ]);
  });

  it('tonweb parses numbers, cells and tuples of the legacy output', () => {
    const out = JSON.parse(
      JSON.stringify(
        tupleToLegacy([
          { type: 'int', value: 698983191n },
          { type: 'int', value: -5n },
          { type: 'cell', cell: cellA },
          { type: 'tuple', items: [{ type: 'int', value: 3n }, { type: 'cell', cell: cellA }, { type: 'int', value: 4n }] },
        ]),
      ),
    );
    const parsed = out.map((p: unknown[]) => HttpProviderUtils.parseResponseStack(p)) as { toString(base?: number): string }[];
    expect(parsed[0]!.toString(10)).toBe('698983191');
    expect(parsed[1]!.toString(10)).toBe('-5');
    const tuple = parsed[3] as unknown as { toString(b?: number): string }[];
    expect(tuple[0]!.toString(10)).toBe('3');
    expect(tuple[2]!.toString(10)).toBe('4');
  });
});

describe('parseLegacyStack (C++ LegacyTvmStackEntryParse)', () => {
  it('accepts every number spelling', () => {
    const args = parseLegacyStack([
      ['num', '7'],
      ['int', 8],
      ['number', '0x1F'],
      ['integer', '-0x10'],
      ['num', '-12'],
    ]);
    expect(args).toEqual([7n, 8n, 31n, -16n, -12n].map((value) => ({ type: 'int', value })));
  });

  it('accepts cells and slices as BoC strings or {bytes} objects', () => {
    const bytes = b64(cellA);
    const args = parseLegacyStack([
      ['tvm.Cell', bytes],
      ['tvm.Slice', bytes],
      ['cell', { bytes, object: { ignored: true } }],
      ['slice', { bytes }],
    ]);
    expect(args.map((a) => a.type)).toEqual(['cell', 'slice', 'cell', 'slice']);
    const items = stackArgsToTuple(args);
    for (const it of items) expect((it as { cell: Cell }).cell.equals(cellA)).toBe(true);
  });

  it('accepts tuples and lists of Std entries; a list becomes nested pairs', () => {
    const n = (v: string) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: v } });
    const [t, l, empty] = parseLegacyStack([
      ['tuple', { '@type': 'tvm.tuple', elements: [n('1'), { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: b64(cellA) } }] }],
      ['tvm.List', { '@type': 'tvm.list', elements: [n('1'), n('2')] }],
      ['list', { elements: [] }],
    ]);
    expect(t!.type).toBe('tuple');
    expect(l).toEqual({
      type: 'tuple',
      items: [{ type: 'int', value: 1n }, { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'null' }] }],
    });
    expect(empty).toEqual({ type: 'null' });
  });

  const rejects = (json: unknown, status: number, message: string) => {
    let err: unknown;
    try {
      parseLegacyStack(json);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StackError);
    expect((err as StackError).status).toBe(status);
    expect((err as StackError).message).toBe(message);
  };

  it('rejects with the C++ messages and statuses', () => {
    rejects([['num', '1', 2]], 422, 'Expected 2 elements in stack entry, got: 3');
    rejects([['null']], 422, 'Expected 2 elements in stack entry, got: 1');
    rejects([[1, 2]], 422, 'Expected string as first element in stack entry');
    rejects([['num', 'abc']], 422, 'Invalid number: abc');
    rejects([['num', '0x']], 422, 'Invalid number: 0x');
    rejects([['num', `0x1${'0'.repeat(64)}`]], 422, `Invalid number: 0x1${'0'.repeat(64)}`);
    rejects([['num', 1.5]], 422, 'Wrong type of number in stack entry');
    rejects([['tvm.Cell', '']], 422, 'Empty tvm.Cell');
    rejects([['tvm.Slice', 5]], 422, 'Invalid tvm.Slice, base64 string expected');
    rejects([['cell', 'te6c']], 422, 'Invalid cell, object with field bytes expected');
    rejects([['slice', { bytes: '' }]], 422, 'Empty slice');
    rejects([['tuple', { '@type': 'tvm.list', elements: [] }]], 422, 'Invalid tvm.Tuple, valid tvm_stackEntryTuple expected');
    rejects([['list', 5]], 422, 'Invalid tvm.List, valid tvm_stackEntryList expected');
    rejects([['null', null]], 542, 'Unsupported stack entry type: null');
    rejects([['tvm.Cell', 'abc']], 422, 'Wrong string length');
  });
});

describe('Std stack (runGetMethodStd)', () => {
  it('round-trips typed entries', () => {
    const items: TupleItem[] = [
      { type: 'int', value: -(2n ** 256n) },
      { type: 'cell', cell: cellA },
      { type: 'slice', cell: addrSlice },
      { type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'tuple', items: [] }, { type: 'int', value: 3n }] },
    ];
    const std = JSON.parse(JSON.stringify(tupleToStd(items)));
    expect(std[0]).toEqual({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: (-(2n ** 256n)).toString() } });
    const back = stackArgsToTuple(parseStdStack(std));
    expect(back[0]).toEqual(items[0]);
    expect((back[1] as { cell: Cell }).cell.equals(cellA)).toBe(true);
    expect(back[2]!.type).toBe('slice');
    expect(back[3]).toEqual(items[3]);
  });

  it('matches TupleBuilder output for a serialized tuple', () => {
    const b = new TupleBuilder();
    b.writeNumber(42);
    b.writeAddress(addr);
    const std = tupleToStd(b.build());
    expect(std.map((e) => e['@type'])).toEqual(['tvm.stackEntryNumber', 'tvm.stackEntrySlice']);
  });

  it('rejects malformed entries', () => {
    expect(() => parseStdStack([{ '@type': 'tvm.stackEntryNumber', number: { number: 'x' } }])).toThrow("Failed to parse int256: 'x'");
    expect(() => parseStdStack([{ '@type': 'tvm.nope' }])).toThrow(StackError);
    expect(() => parseStdStack({})).toThrow(StackError);
  });
});

describe('limits before emulation (src/model/limits.ts)', () => {
  const chainOf = (n: number): Cell => {
    let c = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < n; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
    return c;
  };

  it('reads a BoC header and refuses one whose declared sizes exceed its bytes', () => {
    const boc = chainOf(10).toBoc();
    expect(readBocHeader(boc)).toMatchObject({ cells: 10, roots: 1, absent: 0 });
    const lying = Buffer.from(boc);
    lying[6 + (boc[4]! & 7)] = 0; // no roots
    expect(readBocHeader(lying)).toBe('bag of cells: root count out of range');
    const huge = Buffer.from(boc);
    huge.writeUIntBE(0xff, 6, boc[4]! & 7); // 255 cells declared, 10 present
    expect(readBocHeader(huge)).toBe('bag of cells: declared sizes exceed its length');
    expect(readBocHeader(Buffer.from('not a boc'))).toBe('not a bag of cells');
  });

  it('checks size before decoding, cells before building, then depth', () => {
    const limits = messageLimits(CHAIN_SIZE_LIMITS);
    expect(() => checkBocText('A'.repeat(90_000), 'boc', CHAIN_SIZE_LIMITS)).toThrow('boc is 67500 bytes, the limit is 65535 (config param 43 max_ext_msg_size)');
    expect(() => checkBoc(chainOf(300).toBoc(), 'boc', limits)).toThrow(
      "boc is 299 cells deep, the limit is 256 (the emulator's bound, under config param 43 max_ext_msg_depth 512)",
    );
    expect(checkBoc(chainOf(257).toBoc(), 'boc', limits).cells).toBe(257);
    const small = { ...limits, maxCells: 5 };
    expect(() => checkBoc(chainOf(6).toBoc(), 'body', small)).toThrow('body has 6 cells, the limit is 5 (config param 43 max_msg_cells)');
  });

  it('reads param 43 when a config has it (size_limits_config_v2#02)', () => {
    const p43 = beginCell().storeUint(2, 8).storeUint(1000, 32).storeUint(20, 32).storeUint(30, 32).storeUint(40, 16).storeUint(500, 32).storeUint(50, 16).endCell();
    expect(loadSizeLimits(p43)).toEqual({ maxMsgBits: 1000, maxMsgCells: 20, maxLibraryCells: 30, maxVmDataDepth: 40, maxExtMsgSize: 500, maxExtMsgDepth: 50 });
    expect(loadSizeLimits(undefined)).toEqual(NODE_DEFAULT_SIZE_LIMITS);
    // a network whose own depth limit is below the emulator's bound names the config field alone
    expect(messageLimits(loadSizeLimits(p43))).toMatchObject({ maxDepth: 50, depthSource: 'config param 43 max_ext_msg_depth' });
  });

  it('method ids must fit 32 signed bits; names are anything', () => {
    expect(checkMethodRef('seqno')).toBe('seqno');
    expect(checkMethodRef('-2147483648')).toBe('-2147483648');
    expect(() => checkMethodRef('2147483648')).toThrow('method id 2147483648 is out of range: a method id is a signed 32-bit integer');
    expect(() => checkMethodRef('9'.repeat(5000))).toThrow(/^method id 9{40}… is out of range/);
  });

  it('stacks: entries, tuple length, nesting, numbers, cells and the serialised depth', () => {
    expect(() => parseLegacyStack(Array.from({ length: 60_000 }, () => ['num', '1']))).toThrow('stack has 60000 entries, the limit is 1024');
    expect(() => parseLegacyStack([['num', 1e300]])).toThrow('Invalid number: 1e+300');
    expect(() =>
      parseStdStack([{ '@type': 'tvm.stackEntryTuple', tuple: { elements: Array.from({ length: 256 }, () => ({ '@type': 'tvm.stackEntryNumber', number: { number: '1' } })) } }]),
    ).toThrow('stack holds a tuple of 256 items, the limit is 255 (TVM tuple length)');
    expect(() => parseLegacyStack(Array.from({ length: 300 }, () => ['num', '1']))).toThrow(/^stack serialises 3\d\d cells deep, the limit is 256 \(the emulator's bound\)$/);
    expect(parseLegacyStack(Array.from({ length: 250 }, () => ['num', '1']))).toHaveLength(250);
    // 42 bags of 200 cells: the one that takes the total past 8,192 is refused as its header is read
    const bag = b64(chainOf(200));
    const many = Array.from({ length: 42 }, () => ['tvm.Cell', bag]);
    expect(() => parseLegacyStack(many)).toThrow('stack has more than 8192 cells, the limit is 8192 (config param 43 max_msg_cells)');
    expect(() => parseLegacyStack([['tvm.Cell', b64(chainOf(300))]])).toThrow(
      "tvm.Cell is 299 cells deep, the limit is 256 (the emulator's bound, under config param 43 max_vm_data_depth 512)",
    );
  });
});
