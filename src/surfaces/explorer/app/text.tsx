/**
 * On-chain text as the explorer shows it. Names, symbols, descriptions and comments are whatever their deployer or
 * sender chose, so: characters that reorder the text around them (bidirectional controls) or hide in it (zero-width
 * and other invisible ones) are shown as their code points, `⟨U+202E⟩`; long text wraps anywhere and is cut past
 * a length, the rest a click away. The rules are in onchain-text.ts; format.tsx marks a jetton that imitates
 * Toncoin.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { HIDDEN, codePoint } from './onchain-text.js';

/** The text as nodes, each hidden character a marked `⟨U+XXXX⟩` that says what it is on hover. */
function escaped(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let from = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index! > from) out.push(text.slice(from, m.index));
    const cp = codePoint(m[0]);
    out.push(
      <span class="escaped" title={`hidden character ${cp}: shown, not applied`}>
        ⟨{cp}⟩
      </span>,
    );
    from = m.index! + m[0].length;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** How much of a text is shown before "show all": a line or two of a page. */
export const TEXT_LIMIT = 280;

/**
 * On-chain text, bidi-isolated from what surrounds it, hidden characters shown, wrapping anywhere; past `limit`
 * characters cut with a button that shows the whole text (and one that cuts it again).
 */
export function OnChainText({ text, limit = TEXT_LIMIT }: { text: string | null | undefined; limit?: number }) {
  const [whole, setWhole] = useState(false);
  if (text == null) return null;
  // by code point, so a cut never splits a surrogate pair
  const chars = Array.from(text);
  const long = chars.length > limit;
  const shown = long && !whole ? chars.slice(0, limit).join('') : text;
  return (
    <bdi class="onchain">
      {escaped(shown)}
      {long ? (
        <>
          {whole ? ' ' : '… '}
          <button type="button" class="more" aria-expanded={whole} onClick={() => setWhole(!whole)}>
            {whole ? 'show less' : `show all ${chars.length.toLocaleString('en-US')} characters`}
          </button>
        </>
      ) : null}
    </bdi>
  );
}
