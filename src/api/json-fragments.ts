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

/** Objects whose JSON never changes, and the UTF-8 bytes of those already serialised once (off V8's heap). */
const reusable = new WeakSet<object>();
const texts = new WeakMap<object, Buffer>();

/** Marks a JSON value that will not change again, so answers that contain it reuse its text. Returns it. */
export function reusableJson<T extends object>(value: T): T {
  reusable.add(value);
  return value;
}

/** An answer with more keys than this at its top is not a list answer: JSON.stringify writes it whole. */
const TOP_KEYS = 8;

const isReusable = (v: unknown): v is object => typeof v === 'object' && v !== null && reusable.has(v);

function bytesOf(value: object): Buffer {
  let bytes = texts.get(value);
  if (bytes === undefined) {
    const text = JSON.stringify(value);
    // a buffer of its own: a slice of Buffer's shared pool would keep the whole 8 KB slab alive with it
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    bytes.write(text);
    texts.set(value, bytes);
  }
  return bytes;
}

/**
 * An answer's text as it is written: JSON text between registered objects' bytes. Ends as a Buffer when it holds
 * any registered object, so a 40 KB list answer never exists as a (rope) string on the heap, which Fastify would
 * then flatten to measure it (~10 µs) and Node flatten again to write it; otherwise as the string itself.
 */
class Answer {
  private readonly parts: (string | Buffer)[] = [];
  private text = '';

  str(s: string): void {
    this.text += s;
  }

  bytes(b: Buffer): void {
    if (this.text) this.parts.push(this.text);
    this.text = '';
    this.parts.push(b);
  }

  done(): string | Buffer {
    if (this.parts.length === 0) return this.text;
    if (this.text) this.parts.push(this.text);
    let length = 0;
    for (const p of this.parts) length += typeof p === 'string' ? utf8Length(p) : p.length;
    const out = Buffer.allocUnsafe(length);
    let at = 0;
    for (const p of this.parts) at += typeof p === 'string' ? writeText(out, p, at) : p.copy(out, at);
    return out;
  }
}

/**
 * Most text between reused parts is a comma or a key: a short ASCII string is measured and copied here, where a
 * call into Buffer's native UTF-8 code would cost more than the copy.
 */
const SHORT = 64;

function utf8Length(text: string): number {
  if (text.length <= SHORT) {
    let i = 0;
    while (i < text.length && text.charCodeAt(i) < 0x80) i++;
    if (i === text.length) return i;
  }
  return Buffer.byteLength(text);
}

function writeText(out: Buffer, text: string, at: number): number {
  if (text.length <= SHORT) {
    let i = 0;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) break;
      out[at + i] = c;
    }
    if (i === text.length) return i;
  }
  // anything else, from the start again: a partial copy above is written over
  return out.write(text, at);
}

/**
 * A value below the answer's top, after `prefix` (a key, a comma): a registered object, a list of them, or anything
 * else (JSON.stringify). Nothing at all, prefix included, where JSON.stringify leaves the value out (false).
 */
function write(out: Answer, prefix: string, value: unknown): boolean {
  if (isReusable(value)) {
    out.str(prefix);
    out.bytes(bytesOf(value));
    return true;
  }
  // a list is walked only when it holds registered objects (its first item says so); anything else is written whole
  if (!Array.isArray(value) || !isReusable(value[0])) {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    out.str(prefix + text);
    return true;
  }
  out.str(prefix + '[');
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (i) out.str(',');
    if (isReusable(item)) out.bytes(bytesOf(item));
    else out.str(JSON.stringify(item) ?? 'null');
  }
  out.str(']');
  return true;
}

/**
 * Fastify's reply serializer: JSON.stringify's text, with registered objects' text reused; a Buffer of that text
 * when the answer holds registered objects, else the string. Undefined where JSON.stringify gives undefined.
 */
export function serializeReply(payload: unknown): string | Buffer {
  if (typeof payload !== 'object' || payload === null || typeof (payload as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(payload);
  const out = new Answer();
  if (Array.isArray(payload)) {
    write(out, '', payload);
    return out.done();
  }
  const keys = Object.keys(payload);
  if (keys.length > TOP_KEYS) return JSON.stringify(payload);
  out.str('{');
  let first = true;
  for (const key of keys) {
    if (write(out, (first ? '' : ',') + JSON.stringify(key) + ':', (payload as Record<string, unknown>)[key])) first = false;
  }
  out.str('}');
  return out.done();
}
