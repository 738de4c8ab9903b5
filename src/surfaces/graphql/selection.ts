/** What a resolver's field selects directly under it, through inline fragments and named fragments alike. */
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** The fields selected one level under the resolved field (each named fragment visited once). */
export function fieldsUnder(info: GraphQLResolveInfo): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) out.push(sel);
      else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        visit(info.fragments[sel.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  return out;
}

/** Whether the resolved field selects `name` directly under it. */
export const selectsField = (info: GraphQLResolveInfo, name: string): boolean => fieldsUnder(info).some((f) => f.name.value === name);
