/**
 * The rules for on-chain text, without the page: which characters are hidden (they reorder or hide the text around
 * them) and how they are written instead, and which jettons pass themselves off as Toncoin. text.tsx shows text by them.
 */

/**
 * Bidirectional controls (LRE…RLO U+202A–202E, the isolates U+2066–2069, the marks U+200E/200F and U+061C);
 * zero-width and invisible characters (U+200B–200D, U+2060–2064, U+FEFF, U+180E, U+00AD, U+034F, Hangul fillers);
 * and the C0/C1 controls other than tab and newline.
 */
export const HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/g;

export const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The text with every hidden character written as `⟨U+XXXX⟩`: for places that take a plain string (titles, JSON). */
export function visible(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨${codePoint(c)}⟩`);
}

/** Letters of other scripts (and digits) that pass for the Latin letters of TON, TONCOIN and GRAM. */
const LOOKALIKES: Record<string, string> = {
  Т: 'T', т: 'T', Τ: 'T', τ: 'T', Ꭲ: 'T', ᴛ: 'T',
  О: 'O', о: 'O', Ο: 'O', ο: 'O', Օ: 'O', օ: 'O', σ: 'O', '0': 'O', ᴏ: 'O',
  Ν: 'N', ν: 'N', ɴ: 'N', И: 'N',
  С: 'C', с: 'C', Ϲ: 'C', ϲ: 'C', ᴄ: 'C',
  І: 'I', і: 'I', Ι: 'I', ι: 'I', Ӏ: 'I', ӏ: 'I', '1': 'I', l: 'I', '|': 'I', ɪ: 'I',
  Ԍ: 'G', ɢ: 'G', Ꮐ: 'G',
  Я: 'R', ʀ: 'R', Ʀ: 'R',
  А: 'A', а: 'A', Α: 'A', α: 'A', ᴀ: 'A',
  М: 'M', м: 'M', Μ: 'M', ᴍ: 'M',
};

/**
 * A name or symbol reduced to what it looks like: compatibility forms folded (fullwidth, mathematical letters),
 * accents dropped, lookalike letters mapped to Latin, upper case, and everything that is not a letter or digit
 * (spaces, punctuation, hidden characters) removed.
 */
export function looksLike(text: string): string {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '');
  return Array.from(folded, (c) => LOOKALIKES[c] ?? c)
    .join('')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const TONCOIN_SYMBOLS = new Set(['TON', 'TONCOIN', 'GRAM']);

/** A jetton whose symbol reads as Toncoin's (TON, TONCOIN, GRAM) or whose name contains "Toncoin": it is not Toncoin. */
export function imitatesToncoin(content: { symbol?: string | null; name?: string | null } | null | undefined): boolean {
  if (!content) return false;
  if (content.symbol != null && TONCOIN_SYMBOLS.has(looksLike(content.symbol))) return true;
  return content.name != null && looksLike(content.name).includes('TONCOIN');
}
