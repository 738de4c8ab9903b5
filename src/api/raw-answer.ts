/**
 * Pass-through as a property of the seam: a source may hand back answers that already hold their JSON text
 * (an upstream answer passed on untouched), and may offer a shortcut that answers a repeated request with the
 * text it gave before. Surfaces read both through this module and never learn which source made them.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Answers that carry their JSON text, each with how to read it (it may stop being offered). Nothing is stored on the answer itself. */
const texts = new WeakMap<object, () => string | undefined>();
/** API implementations that offer a shortcut for repeated requests. */
const shortcuts = new WeakMap<object, AnswerShortcut>();

/**
 * A source says that `value`'s JSON text is what `text()` gives, exactly what `JSON.stringify(value)` would
 * give, for as long as it gives one (undefined from then on). Returns `value`.
 */
export function carriesJsonText<T extends object>(value: T, text: () => string | undefined): T {
  texts.set(value, text);
  return value;
}

/** The JSON text an answer carries: exactly what `JSON.stringify(value)` gives. Undefined for anything else. */
export function preSerialized(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return texts.get(value)?.();
}

/**
 * A source's shortcut for repeated requests: the same request (URL and option headers) again is answered with
 * the text the source gave, without the route running. A REST surface asks for it with `answersOf`.
 */
export interface AnswerShortcut {
  /** The key of a request: its URL and the option headers as sent. */
  aliasOf(url: string, headers: IncomingHttpHeaders): string;
  /** The answer's JSON text, if this exact request can be answered without running its route. */
  lookup(alias: string): string | undefined;
  /** The API wrapped so the calls one run of a route makes through it are counted. */
  track<T extends object>(api: T): { source: T; calls(): number };
  /** After a run: lets `alias` find its answer, if the run qualifies (one call, no header read, an untouched answer). */
  remember(alias: string, result: unknown, calls: number, readHeaders: boolean): void;
}

/** Attaches a shortcut to an API implementation, where `answersOf` finds it. */
export function withAnswers<T extends object>(api: T, answers: AnswerShortcut): T {
  shortcuts.set(api, answers);
  return api;
}

/** The shortcut an API implementation offers, if it offers one. */
export function answersOf(api: object): AnswerShortcut | undefined {
  return shortcuts.get(api);
}
