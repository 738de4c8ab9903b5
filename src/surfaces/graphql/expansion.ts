/**
 * The size of an operation once its fragments are expanded: the field nodes execution (and graphql-jit's compiler)
 * would walk. A fragment spread three times in a fragment spread three times... grows as 3^k while the document
 * grows by k lines, and neither the token bound nor the cost rule sees it (a connection asked for `first: 0`
 * multiplies its subtree by nothing). Each fragment's expanded size is computed once, so counting is linear in the
 * document however large the expansion.
 */
import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { ErrorCode } from './errors.js';

/**
 * The largest expanded size of any operation or fragment of the document. A fragment that spreads itself (a cycle,
 * which validation refuses) counts its own spread as nothing; an unknown fragment (refused the same way) likewise.
 * Stops counting past `limit` (the result is then some number above it), so a count never overflows.
 */
export function expandedFieldCount(document: DocumentNode, limit = Number.MAX_SAFE_INTEGER): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const sizes = new Map<string, number>();
  const counting = new Set<string>();

  const fragmentSize = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || counting.has(name)) return 0;
    counting.add(name);
    const size = selectionSize(fragment.selectionSet);
    counting.delete(name);
    sizes.set(name, size);
    return size;
  };

  const selectionSize = (set: SelectionSetNode): number => {
    let size = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) size += 1 + (s.selectionSet ? selectionSize(s.selectionSet) : 0);
      else if (s.kind === Kind.INLINE_FRAGMENT) size += selectionSize(s.selectionSet);
      else size += fragmentSize(s.name.value);
      // past the limit the exact figure no longer matters; capping keeps it finite however deep the spreads
      if (size > limit) return limit + 1;
    }
    return size;
  };

  let max = 0;
  for (const d of document.definitions) {
    const size =
      d.kind === Kind.OPERATION_DEFINITION ? selectionSize(d.selectionSet) : d.kind === Kind.FRAGMENT_DEFINITION ? fragmentSize(d.name.value) : 0;
    if (size > max && (max = size) > limit) break;
  }
  return max;
}

/**
 * The refusal of a document that expands past `limit` field nodes, coded as the cost limit is. It is answered 400
 * even as application/json (`spec: false`: yoga would otherwise answer a refused document 200 there, as the
 * GraphQL-over-HTTP spec allows for validation errors).
 */
export function expansionError(limit: number): GraphQLError {
  return new GraphQLError(
    `Query selects more than ${limit} fields once its fragments are expanded, the limit of this service (every spread of a fragment counts its fields again)`,
    { extensions: { code: ErrorCode.QUERY_TOO_COMPLEX, limit, http: { status: 400, spec: false } } },
  );
}
