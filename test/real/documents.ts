/**
 * GraphQL documents generated from the served schema (read by introspection), so that a field or a union member
 * added later is selected without touching the suite. From one root field, every object type reachable through
 * fields that need no argument (union and interface members included) gets one document: the shortest path to it,
 * then all of its own fields, each composite one with its scalar fields (and on every member of a union or an
 * interface). One document per type keeps each inside the depth, cost and size limits.
 */
import {
  buildClientSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';

export const schemaFrom = (introspection: IntrospectionQuery): GraphQLSchema => buildClientSchema(introspection);

/** Fields a document can select without inventing an argument. */
const selectable = (f: GraphQLField<unknown, unknown>) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined);

const objectsOf = (schema: GraphQLSchema, t: GraphQLCompositeType): readonly GraphQLObjectType[] =>
  isObjectType(t) ? [t] : schema.getPossibleTypes(t);

/** Connections are asked for two items: enough to see an item and a cursor, cheap enough for the cost limit. */
const call = (f: GraphQLField<unknown, unknown>): string => (f.args.some((a) => a.name === 'first') ? `${f.name}(first: 2)` : f.name);

/** Every scalar and enum field of an object type. */
function leafFields(t: GraphQLObjectType): string[] {
  return Object.values(t.getFields())
    .filter((f) => selectable(f) && isLeafType(getNamedType(f.type)))
    .map((f) => f.name);
}

/** A part of the members of an abstract type: every `of`-th from `part`, so a large union fits in several documents. */
interface Share {
  part: number;
  of: number;
}

function leavesOf(schema: GraphQLSchema, t: GraphQLCompositeType, share: Share): string {
  if (isObjectType(t)) return ['__typename', ...leafFields(t)].join(' ');
  const members = objectsOf(schema, t).filter((_, i) => i % share.of === share.part);
  return ['__typename', ...members.map((m) => `... on ${m.name} { ${leafFields(m).join(' ') || '__typename'} }`)].join(' ');
}

/** All fields of an object type: scalars as they are, composite fields with their own scalars. */
export function fullSelection(schema: GraphQLSchema, t: GraphQLObjectType, share: Share = { part: 0, of: 1 }): string {
  const parts = ['__typename'];
  for (const f of Object.values(t.getFields())) {
    if (!selectable(f)) continue;
    const named = getNamedType(f.type);
    parts.push(isCompositeType(named) ? `${call(f)} { ${leavesOf(schema, named, share)} }` : call(f));
  }
  return parts.join(' ');
}

/** One step of the path to a type: a field, entered through a fragment when its type is abstract. */
interface Step {
  field: string;
  on?: string;
}

export interface TypeDocument {
  type: string;
  path: Step[];
  query: string;
}

/**
 * One document per object type reachable from `root` (a Query field), breadth first so each type is reached by
 * its shortest path; `rootArgs` is the argument text of the root field, e.g. `id: "…"`. A type whose document
 * would pass `maxBytes` gets several, each with a share of the members of its abstract fields.
 */
export function documentsFrom(schema: GraphQLSchema, root: string, rootArgs: string, maxBytes = Infinity): TypeDocument[] {
  const rootField = schema.getQueryType()!.getFields()[root];
  if (!rootField) throw new Error(`no Query.${root}`);
  const start = getNamedType(rootField.type) as GraphQLCompositeType;
  const paths = new Map<string, Step[]>();
  const queue: [GraphQLObjectType, Step[]][] = [];
  for (const m of objectsOf(schema, start)) {
    const path = [{ field: root, ...(isAbstractType(start) ? { on: m.name } : {}) }];
    paths.set(m.name, path);
    queue.push([m, path]);
  }
  while (queue.length) {
    const [t, path] = queue.shift()!;
    for (const f of Object.values(t.getFields())) {
      if (!selectable(f)) continue;
      const named = getNamedType(f.type);
      if (!isCompositeType(named)) continue;
      for (const m of objectsOf(schema, named)) {
        if (paths.has(m.name)) continue;
        const next = [...path, { field: call(f), ...(isAbstractType(named) ? { on: m.name } : {}) }];
        paths.set(m.name, next);
        queue.push([m, next]);
      }
    }
  }
  const documentOf = (name: string, path: Step[], share: Share): TypeDocument => {
    let body = fullSelection(schema, schema.getType(name) as GraphQLObjectType, share);
    for (let i = path.length - 1; i >= 0; i--) {
      const s = path[i]!;
      const inner = s.on ? `__typename ... on ${s.on} { ${body} }` : body;
      body = i === 0 ? `${s.field}(${rootArgs}) { ${inner} }` : `${s.field} { ${inner} }`;
    }
    return { type: name, path, query: `{ ${body} }` };
  };
  return [...paths].flatMap(([name, path]) => {
    for (let of = 1; ; of++) {
      const docs = Array.from({ length: of }, (_, part) => documentOf(name, path, { part, of }));
      if (docs.every((d) => Buffer.byteLength(d.query) <= maxBytes)) return docs;
      if (of > 64) throw new Error(`${name}: no split of its document fits ${maxBytes} bytes`);
    }
  });
}
