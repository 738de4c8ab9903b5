import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reusableJson, serializeReply } from '../../src/api/json-fragments.js';

// JSON values of every kind, with the odd members JSON.stringify treats specially
const member = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  // any code point, lone surrogates too: the text is written out as UTF-8 bytes
  fc.string({ unit: 'binary', maxLength: 8 }),
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

/** The answer's text, whether the serializer gave it as a string or as bytes. */
const text = (payload: unknown): string | undefined => {
  const out = serializeReply(payload);
  return Buffer.isBuffer(out) ? out.toString('utf8') : out;
};

describe('reply serializer with reusable parts', () => {
  it('writes exactly what JSON.stringify writes, for any answer', () => {
    fc.assert(
      fc.property(answer, (a) => {
        // twice: the second time registered objects' text comes from the first
        expect(text(a)).toBe(JSON.stringify(a));
        expect(text(a)).toBe(JSON.stringify(a));
      }),
      { numRuns: 2000 },
    );
  });

  it('reuses a registered object once serialised (the point of registering), and nothing unregistered', () => {
    const tx = reusableJson({ hash: 'a', lt: '1' });
    const loose = { hash: 'b', lt: '2' };
    const page = { transactions: [tx, loose], address_book: {} };
    expect(text(page)).toBe('{"transactions":[{"hash":"a","lt":"1"},{"hash":"b","lt":"2"}],"address_book":{}}');
    // a registered object is promised never to change: its first text stays; an unregistered one is written anew
    (tx as { lt: string }).lt = '9';
    loose.lt = '9';
    expect(text(page)).toBe('{"transactions":[{"hash":"a","lt":"1"},{"hash":"b","lt":"9"}],"address_book":{}}');
    expect(text({ ok: true, result: [tx] })).toBe('{"ok":true,"result":[{"hash":"a","lt":"1"}]}');
  });

  it('gives an answer holding registered objects as bytes, with its non-ASCII text intact, and any other as a string', () => {
    const tx = reusableJson({ comment: 'привет 🌍', lt: '1' });
    const out = serializeReply({ transactions: [tx], address_book: { a: { name: 'Ω' } } });
    expect(Buffer.isBuffer(out)).toBe(true);
    expect(out.toString()).toBe('{"transactions":[{"comment":"привет 🌍","lt":"1"}],"address_book":{"a":{"name":"Ω"}}}');
    expect(serializeReply({ transactions: [{ lt: '1' }] })).toBe('{"transactions":[{"lt":"1"}]}');
  });
});
