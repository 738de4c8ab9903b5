/**
 * JSON parsed with the recorded text of every object and array kept (jsonc-parser's syntax tree gives each
 * value's offset and length), so that the fake toncenter can answer a lookup with the objects exactly as they
 * were recorded (their bytes, not a re-serialisation) inside the response shape toncenter uses.
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface Recorded {
  value: Json;
  /** the recorded text of each object and array of `value` */
  textOf: WeakMap<object, string>;
}

export function parseRecorded(text: string): Recorded {
  const errors: ParseError[] = [];
  // strict JSON: no comments, no trailing commas
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (!root || errors.length > 0) throw new SyntaxError(`not JSON (error ${errors[0]?.error} at ${errors[0]?.offset})`);
  const textOf = new WeakMap<object, string>();
  const build = (node: Node): Json => {
    const raw = () => text.slice(node.offset, node.offset + node.length);
    if (node.type === 'object') {
      const o: { [k: string]: Json } = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children!;
        // defineProperty: a "__proto__" member stays a member
        Object.defineProperty(o, key!.value as string, { value: build(value!), enumerable: true, writable: true, configurable: true });
      }
      textOf.set(o, raw());
      return o;
    }
    if (node.type === 'array') {
      const a = (node.children ?? []).map(build);
      textOf.set(a, raw());
      return a;
    }
    return node.value as Json;
  };
  return { value: build(root), textOf };
}

/** JSON text of `v`, using the recorded text of every object or array that has one. */
export function serialiseRecorded(v: unknown, textOf: WeakMap<object, string>): string {
  if (v !== null && typeof v === 'object') {
    const recorded = textOf.get(v);
    if (recorded !== undefined) return recorded;
    if (Array.isArray(v)) return `[${v.map((x) => serialiseRecorded(x, textOf)).join(',')}]`;
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${serialiseRecorded(x, textOf)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
