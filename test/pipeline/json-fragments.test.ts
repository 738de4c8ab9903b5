import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reusableJson, serializeReply } from '../../src/pipeline/json-fragments.js';

// JSON values of every kind, with the odd members JSON.stringify treats specially
const member = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.date({ noInvalidDate: true }),
  fc.constant(Buffer.from('ab')),
);
const item = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 6 }), member, { maxKeys: 6 }).map((o) => reusableJson(o)),
  fc.dictionary(fc.string({ maxLength: 6 }), member, { maxKeys: 6 }),
  member,
);
const answer = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(member, fc.array(item, { maxLength: 6 }), item), { maxKeys: 10 }),
  fc.array(item, { maxLength: 6 }),
  member,
);

describe('reply serializer with reusable parts', () => {
  it('writes exactly what JSON.stringify writes, for any answer', () => {
    fc.assert(
      fc.property(answer, (a) => {
        // twice: the second time registered objects' text comes from the first
        expect(serializeReply(a)).toBe(JSON.stringify(a));
        expect(serializeReply(a)).toBe(JSON.stringify(a));
      }),
      { numRuns: 2000 },
    );
  });

  it('reuses a registered object once serialised (the point of registering), and nothing unregistered', () => {
    const tx = reusableJson({ hash: 'a', lt: '1' });
    const loose = { hash: 'b', lt: '2' };
    const page = { transactions: [tx, loose], address_book: {} };
    expect(serializeReply(page)).toBe('{"transactions":[{"hash":"a","lt":"1"},{"hash":"b","lt":"2"}],"address_book":{}}');
    // a registered object is promised never to change: its first text stays; an unregistered one is written anew
    (tx as { lt: string }).lt = '9';
    loose.lt = '9';
    expect(serializeReply(page)).toBe('{"transactions":[{"hash":"a","lt":"1"},{"hash":"b","lt":"9"}],"address_book":{}}');
    expect(serializeReply({ ok: true, result: [tx] })).toBe('{"ok":true,"result":[{"hash":"a","lt":"1"}]}');
  });
});
