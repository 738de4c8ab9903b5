/**
 * The parse and validation cache, in place of yoga's own (which keeps up to 1,024 documents by entry count, the
 * invalid ones and their validation errors included: 1,000 distinct 20 KB documents of unknown fields held ~4.7 GB).
 * Here a document is kept only once it has parsed *and* validated, in a table bounded in bytes as well as in
 * entries; a document that failed either is parsed and validated again next time (both are bounded by the
 * token and expansion limits), so distinct invalid documents cost nothing past their own request. Validation's
 * verdict is kept with the document: a cached document is one that validated.
 *
 * The same text gets the same DocumentNode back, which the per-document verdicts (cost, caching) key on.
 */
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** Heap a parsed document holds per character of its text, measured on graphql-js 16: 85 for a typical query, 240 for a flat run of fields. */
const AST_BYTES_PER_CHAR = 128;
/** The fixed part of an entry: the key, the map's node, a small document's own objects. */
const ENTRY_OVERHEAD = 1024;

export interface DocumentCacheOptions {
  /** estimated heap of the documents kept */
  maxBytes: number;
  maxEntries: number;
}

export const DOCUMENT_CACHE: DocumentCacheOptions = { maxBytes: 64 * 1024 * 1024, maxEntries: 1024 };

/** The estimated heap of a document parsed from `text`, as the caches here charge it. */
export const documentBytes = (text: string): number => ENTRY_OVERHEAD + text.length * AST_BYTES_PER_CHAR;

export function useDocumentCache(options: DocumentCacheOptions = DOCUMENT_CACHE): Plugin & { size(): { entries: number; bytes: number } } {
  const documents = new LRUCache<string, DocumentNode>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    sizeCalculation: (_document, text) => documentBytes(text),
  });
  /** documents parsed but not yet validated, with the text to keep them under once they are */
  const pending = new WeakMap<DocumentNode, string>();
  const valid = new WeakSet<DocumentNode>();

  return {
    onParse({ params, setParsedDocument }) {
      const text = typeof params.source === 'string' ? params.source : String(params.source?.body ?? params.source);
      const known = documents.get(text);
      if (known) return void setParsedDocument(known);
      return ({ result }) => {
        if (result && !(result instanceof Error)) pending.set(result as DocumentNode, text);
      };
    },
    onValidate({ params, setResult }) {
      if (valid.has(params.documentAST)) return void setResult([]);
      return ({ valid: passed }) => {
        const text = pending.get(params.documentAST);
        if (!passed || text === undefined) return;
        pending.delete(params.documentAST);
        valid.add(params.documentAST);
        documents.set(text, params.documentAST);
      };
    },
    size: () => ({ entries: documents.size, bytes: documents.calculatedSize }),
  };
}
