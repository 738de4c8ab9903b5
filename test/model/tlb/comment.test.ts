/** Comments: round trips over several cells, and every recorded mainnet text comment (fixtures.ts). */
import { beginCell, comment } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { COMMENT_OP, loadComment, payloadComment, storeComment, type Comment } from '../../../src/model/tlb/comment.js';
import { recordedBodies } from './fixtures.js';
import { withoutShared } from '../../helpers/shared.js';

const noShared = withoutShared('the recorded mainnet comments');

const write = (c: Comment) => beginCell().store(storeComment(c)).endCell();

describe('comments', () => {
  it('round-trip, long ones over a snake of cells', () => {
    for (const bytes of [Buffer.alloc(0), Buffer.from('hello'), Buffer.from('é'.repeat(400))]) {
      for (const type of ['text', 'encrypted'] as const) {
        const cell = write({ type, bytes });
        expect(loadComment(cell.beginParse())).toEqual({ type, bytes });
      }
    }
  });

  it('writes text comments as @ton/core does', () => {
    const text = 'x'.repeat(300);
    expect(write({ type: 'text', bytes: Buffer.from(text) }).hash()).toEqual(comment(text).hash());
  });

  it.skipIf(noShared)('reads the recorded comments, and writes them back bit-exact', () => {
    const bodies = recordedBodies(COMMENT_OP.text);
    expect(bodies.length).toBeGreaterThan(5);
    for (const body of bodies) {
      const c = loadComment(body.beginParse());
      expect(c.type).toBe('text');
      expect(write(c).hash().toString('hex')).toBe(body.hash().toString('hex'));
    }
  });

  it('payloadComment: null for anything that is not a comment', () => {
    expect(payloadComment(null)).toBeNull();
    expect(payloadComment(beginCell().storeUint(1, 32).endCell())).toBeNull();
    expect(payloadComment(comment('hi'))).toEqual({ type: 'text', bytes: Buffer.from('hi') });
  });
});
