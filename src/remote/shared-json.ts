/**
 * One decoded upstream answer (or cache entry) shared by every caller that asked for it, without a copy per
 * caller. Each caller gets a view: an object that behaves as its own deep copy of the answer, but makes that
 * copy only when the caller first looks inside (reads a field, lists keys, writes). Until then:
 *
 * - `JSON.stringify(view)` serialises the shared value itself (through `toJSON`), with the same text a copy
 *   would give, so a surface that only sends the answer on (the v2 envelope) never copies it;
 * - `preSerialized(view)` (the seam's pass-through, api/raw-answer.ts) is the answer's JSON text, exactly
 *   `JSON.stringify` of the value, so a surface can send it without serialising at all (the v3 routes; cache
 *   hits keep their text and are never parsed);
 * - `cachedAs(view)` is the response-cache key it is stored under, if it is (answers.ts).
 *
 * Once a caller has looked inside, its view is an ordinary object of its own: changes stay in it, and it no
 * longer offers a pre-serialized text (which could be stale). Primitives (a v2 balance string) need no view.
 */

import { carriesJsonText } from '../api/raw-answer.js';

const CACHED_AS = Symbol('upstream.cachedAs');

/** The response-cache key an untouched view's answer is stored under, if it is stored. */
export function cachedAs(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const key = (value as { [CACHED_AS]?: unknown })[CACHED_AS];
  return typeof key === 'string' ? key : undefined;
}

export class SharedJson {
  private decoded: boolean;
  private value: unknown;
  private text: string | undefined;
  /** keep the decoded value once made; off for cache entries, whose size bound counts their text only */
  private readonly retain: boolean;
  private hasThen: boolean | undefined;
  /** the response-cache key this answer is stored under, once it is */
  cacheKey: string | undefined;

  private constructor(value: unknown, decoded: boolean, text: string | undefined, retain: boolean) {
    this.value = value;
    this.decoded = decoded;
    this.text = text;
    this.retain = retain;
  }

  /** A value decoded from JSON (JSON.parse output); nobody else may hold it. */
  static ofValue(value: unknown): SharedJson {
    return new SharedJson(value, true, undefined, true);
  }

  /**
   * JSON text as `JSON.stringify` writes it, decoded only when a caller needs the value. `retain: false` (a
   * cache entry) decodes it anew each time rather than keep a decoded copy next to the text.
   */
  static ofText(text: string, { retain = true, cacheKey }: { retain?: boolean; cacheKey?: string } = {}): SharedJson {
    const s = new SharedJson(undefined, false, text, retain);
    s.cacheKey = cacheKey;
    return s;
  }

  /** The shared value; never handed to a caller, only to checks that read it and to JSON.stringify. */
  get shared(): unknown {
    if (this.decoded) return this.value;
    const value: unknown = JSON.parse(this.text!);
    if (this.retain) {
      this.value = value;
      this.decoded = true;
    }
    return value;
  }

  /** `JSON.stringify` of the value, computed once. */
  get json(): string {
    if (this.text === undefined) this.text = JSON.stringify(this.value);
    return this.text;
  }

  /** A deep copy for one caller. */
  copy(): unknown {
    return JSON.parse(this.json);
  }

  /** Whether the value is an object with this own key (checked without decoding a text-only entry). */
  hasOwnKey(key: string): boolean {
    if (this.decoded) {
      const v = this.value;
      return typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, key);
    }
    // the text is JSON.stringify output, where a key is always written as "key": absent there, absent in the value;
    // `then` is asked at every await of a view, so its answer is kept
    if (key === 'then') return (this.hasThen ??= this.text!.includes('"then"'));
    return this.text!.includes(JSON.stringify(key));
  }

  /** What one caller gets: primitives as they are, objects and arrays as a view. */
  view(): unknown {
    const v = this.decoded ? this.value : undefined;
    if (this.decoded && (typeof v !== 'object' || v === null)) return v;
    if (!this.decoded) {
      // JSON text: an object or array starts with its bracket, anything else is a primitive
      const c = this.text!.charCodeAt(0);
      if (c !== 0x7b && c !== 0x5b) return this.shared;
      return this.newView(c === 0x5b);
    }
    return this.newView(Array.isArray(v));
  }

  /** A view carrying this answer's text until something looks inside it. */
  private newView(isArray: boolean): object {
    const handler = new ViewHandler(this, isArray);
    return carriesJsonText(new Proxy(isArray ? [] : {}, handler), () => handler.jsonText());
  }
}

/**
 * The view's traps: before the first look inside, the target is an empty object (or array) and only what a
 * copy would answer alike without its contents is answered: the pre-serialized text, `toJSON`, symbols (JSON
 * has no symbol keys) and names the data does not have (`then`, so a view can be awaited; `pipe`, `map`, …),
 * looked up on the target's prototype as on a copy. Anything else first fills the target with the caller's
 * own copy; from then on every trap is the default one.
 */
class ViewHandler implements ProxyHandler<object> {
  private filled = false;
  private readonly toJSON: () => unknown;

  constructor(
    private readonly source: SharedJson,
    private readonly isArray: boolean,
  ) {
    this.toJSON = () => source.shared;
  }

  /** The answer's text, while the view is still untouched (a filled view may have been changed). */
  jsonText(): string | undefined {
    return this.filled ? undefined : this.source.json;
  }

  private fill(target: object): void {
    if (this.filled) return;
    this.filled = true;
    const copy = this.source.copy() as Record<string, unknown>;
    if (this.isArray) {
      const list = copy as unknown as unknown[];
      for (let i = 0; i < list.length; i++) (target as unknown[]).push(list[i]);
      return;
    }
    // defineProperty, not assignment: an own "__proto__" key must stay a key
    for (const k of Object.keys(copy)) {
      Reflect.defineProperty(target, k, { value: copy[k], writable: true, enumerable: true, configurable: true });
    }
  }

  /** Whether a copy could have `key` as an own property (an array: its length and indices). */
  private mayOwn(key: string): boolean {
    if (this.isArray) return key === 'length' || (key.charCodeAt(0) >= 0x30 && key.charCodeAt(0) <= 0x39);
    return this.source.hasOwnKey(key);
  }

  get(target: object, key: string | symbol, receiver: unknown): unknown {
    if (!this.filled) {
      if (key === CACHED_AS) return this.source.cacheKey;
      if (typeof key === 'symbol' || !this.mayOwn(key)) {
        return key === 'toJSON' ? this.toJSON : Reflect.get(target, key, receiver);
      }
      this.fill(target);
    }
    return Reflect.get(target, key, receiver);
  }

  set(target: object, key: string | symbol, value: unknown, receiver: unknown): boolean {
    this.fill(target);
    return Reflect.set(target, key, value, receiver);
  }

  has(target: object, key: string | symbol): boolean {
    this.fill(target);
    return Reflect.has(target, key);
  }

  deleteProperty(target: object, key: string | symbol): boolean {
    this.fill(target);
    return Reflect.deleteProperty(target, key);
  }

  defineProperty(target: object, key: string | symbol, desc: PropertyDescriptor): boolean {
    this.fill(target);
    return Reflect.defineProperty(target, key, desc);
  }

  getOwnPropertyDescriptor(target: object, key: string | symbol): PropertyDescriptor | undefined {
    this.fill(target);
    return Reflect.getOwnPropertyDescriptor(target, key);
  }

  ownKeys(target: object): (string | symbol)[] {
    this.fill(target);
    return Reflect.ownKeys(target);
  }

  preventExtensions(target: object): boolean {
    this.fill(target);
    return Reflect.preventExtensions(target);
  }

  setPrototypeOf(target: object, proto: object | null): boolean {
    this.fill(target);
    return Reflect.setPrototypeOf(target, proto);
  }
}
