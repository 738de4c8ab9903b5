/**
 * Answers' JSON text with reusable parts. A list answer (v2 getTransactions, v3 /transactions, ...) is mostly
 * objects that a source keeps in a cache and hands out again and again (a sealed transaction printed as v2 or
 * v3 JSON never changes); serialising them anew on every request was the largest single cost of those routes
 * under load (JSON.stringify of a 40 KB answer ~80 µs). A source registers such an object once with
 * `reusableJson`; the reply serializer then writes the object's text from the first time it was serialised.
 *
 * The text is exactly JSON.stringify's: the serializer walks the answer's top object (when it has a few keys) and
 * the lists in it that hold registered objects, with JSON.stringify's rules (own enumerable string keys in order;
 * undefined, functions and symbols left out of objects and written as null in lists; toJSON honoured), and hands
 * everything else to JSON.stringify whole. A registered object must never
 * be changed afterwards: the sources that register objects already share them between answers read-only.
 */

/** Objects whose JSON never changes, and the text of those already serialised once. */
const reusable = new WeakSet<object>();
const texts = new WeakMap<object, string>();

/** Marks a JSON value that will not change again, so answers that contain it reuse its text. Returns it. */
export function reusableJson<T extends object>(value: T): T {
  reusable.add(value);
  return value;
}

/** An answer with more keys than this at its top is not a list answer: JSON.stringify writes it whole. */
const TOP_KEYS = 8;

const isReusable = (v: unknown): v is object => typeof v === 'object' && v !== null && reusable.has(v);

function textOf(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/** A value below the answer's top: a registered object, a list of them, or anything else (JSON.stringify). */
function write(value: unknown): string | undefined {
  if (isReusable(value)) return textOf(value);
  // a list is walked only when it holds registered objects (its first item says so); anything else is written whole
  if (!Array.isArray(value) || !isReusable(value[0])) return JSON.stringify(value);
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    out += (i ? ',' : '') + (isReusable(item) ? textOf(item) : (JSON.stringify(item) ?? 'null'));
  }
  return out + ']';
}

/** Fastify's reply serializer: JSON.stringify's text, with registered objects' text reused. */
export function serializeReply(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null || typeof (payload as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(payload);
  if (Array.isArray(payload)) return write(payload) as string;
  const keys = Object.keys(payload);
  if (keys.length > TOP_KEYS) return JSON.stringify(payload);
  let out = '{';
  let first = true;
  for (const key of keys) {
    const text = write((payload as Record<string, unknown>)[key]);
    // undefined, a function or a symbol: left out, as JSON.stringify does
    if (text === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + text;
    first = false;
  }
  return out + '}';
}
