/**
 * Compiled execution, as a yoga plugin: a query document seen before is compiled with graphql-jit once, kept in a
 * bounded LRU, and from then on executed by the compiled code in place of graphql-js's `execute` (envelop's
 * `setExecuteFn`). Everything else of yoga's pipeline runs as for any request: APQ, the parse and validation
 * cache, the limits (which may stop execution before this plugin's function is reached), the context, error
 * masking, the finality cache and any plugin added later, since they are all hooks around the one execute step.
 * A document seen for the first time, one that does not compile, a mutation, one that expands past
 * COMPILE_MAX_FIELDS, or variables that do not coerce (graphql-jit runs nothing then) are executed by graphql-js.
 *
 * graphql-jit writes literal arguments into the generated code as JSON, which turns a parsed `Address` into a
 * plain object; so literal arguments of this schema's own scalars are moved into variables before compiling,
 * where graphql-jit coerces them with the scalar's parseValue, which `literal()` makes equal to parseLiteral.
 */
import {
  GraphQLError,
  Kind,
  TypeInfo,
  getNamedType,
  getOperationAST,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  isSpecifiedScalarType,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type ListTypeNode,
  type Source,
  type NamedTypeNode,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { graphqlCompiled } from '../../observe/metrics.js';
import { documentBytes } from './document-cache.js';
import { expandedFieldCount } from './expansion.js';

/** documents kept; past it the least recently used is dropped */
export const MAX_COMPILED = 500;
/**
 * The estimated heap of the table, documents seen once (their text) and compiled ones (text, document and
 * generated code) alike; past it the least recently used go.
 */
export const COMPILED_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * Only documents that expand to at most this many fields are compiled; larger ones (still within the expansion
 * limit) are interpreted by yoga. graphql-jit's compile time grows faster than the fields it generates code for
 * (measured: 730 fields 0.12 s, 2,190 fields 0.9 s, 6,560 fields 3.6 s, each with the event loop held).
 */
export const COMPILE_MAX_FIELDS = 500;
/** Heap of graphql-jit's generated code per field of the expanded operation (measured 1.3-4 KB). */
const COMPILED_BYTES_PER_FIELD = 4096;

interface Entry {
  compiled: CompiledQuery;
  /** estimated heap of the document's text and its compiled code */
  bytes: number;
  /** the variables that replace literal arguments, merged into the request's own; absent when there are none */
  literals?: Record<string, unknown>;
}

/** The JSON input form of a literal, as `literal()` reads it (integers past 2^53 stay strings), or undefined when it has none. */
function rawValue(node: ValueNode): { value: unknown } | undefined {
  switch (node.kind) {
    case Kind.STRING:
      return { value: node.value };
    case Kind.INT:
      return { value: Number.isSafeInteger(Number(node.value)) ? Number(node.value) : node.value };
    case Kind.NULL:
      return { value: null };
    case Kind.LIST: {
      const items = node.values.map(rawValue);
      return items.every((i) => i !== undefined) ? { value: items.map((i) => i!.value) } : undefined;
    }
    default:
      return undefined;
  }
}

const LITERAL_PREFIX = '__literal';

/** The AST of an input type, for a variable's definition. */
function typeNode(type: GraphQLInputType): TypeNode {
  if (isNonNullType(type)) return { kind: Kind.NON_NULL_TYPE, type: typeNode(type.ofType) as NamedTypeNode | ListTypeNode };
  if (isListType(type)) return { kind: Kind.LIST_TYPE, type: typeNode(type.ofType as GraphQLInputType) };
  return { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: type.name } };
}

/**
 * The operation with each literal argument of one of this schema's scalars moved into a variable; undefined when
 * something else would reach graphql-jit's JSON (a scalar inside an input object, a default of such a scalar).
 */
function withLiteralsAsVariables(schema: GraphQLSchema, document: DocumentNode): { document: DocumentNode; literals: Record<string, unknown> } | undefined {
  const literals: Record<string, unknown> = {};
  const definitions: VariableDefinitionNode[] = [];
  const ownScalar = (t: ReturnType<typeof getNamedType>) => isScalarType(t) && !isSpecifiedScalarType(t);
  let refused = false;
  const typeInfo = new TypeInfo(schema);
  const rewritten = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      VariableDefinition(node) {
        if (node.defaultValue) refused = true;
      },
      Field() {
        for (const arg of typeInfo.getFieldDef()?.args ?? []) {
          if (arg.defaultValue !== undefined && ownScalar(getNamedType(arg.type))) refused = true;
        }
      },
      Argument(node): ArgumentNode | undefined {
        const type = typeInfo.getArgument()?.type;
        if (!type || node.value.kind === Kind.VARIABLE) return undefined;
        const named = getNamedType(type);
        if (isInputObjectType(named)) refused = true;
        if (!ownScalar(named)) return undefined;
        const raw = rawValue(node.value);
        if (!raw) {
          refused = true;
          return undefined;
        }
        const name = `${LITERAL_PREFIX}${definitions.length}`;
        literals[name] = raw.value;
        definitions.push({
          kind: Kind.VARIABLE_DEFINITION,
          variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } },
          type: typeNode(type),
        });
        return { ...node, value: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } } };
      },
    }),
  );
  if (refused) return undefined;
  if (definitions.length === 0) return { document, literals };
  const withDefinitions = visit(rewritten, {
    OperationDefinition(node) {
      return { ...node, variableDefinitions: [...(node.variableDefinitions ?? []), ...definitions] };
    },
  });
  return { document: withDefinitions, literals };
}

const INTROSPECTION = /\b__(schema|type)\b/;

/**
 * Compiles a document yoga has parsed and validated (every limit of those steps passed); undefined when graphql-js
 * must execute it. One that expands past COMPILE_MAX_FIELDS is not compiled.
 */
function compile(schema: GraphQLSchema, query: string, document: DocumentNode, operationName: string | undefined): Entry | undefined {
  if (INTROSPECTION.test(query)) return undefined;
  const fields = expandedFieldCount(document, COMPILE_MAX_FIELDS);
  if (fields > COMPILE_MAX_FIELDS) return undefined;
  if (getOperationAST(document, operationName)?.operation !== 'query') return undefined;
  const moved = withLiteralsAsVariables(schema, document);
  if (!moved) return undefined;
  try {
    const compiled = compileQuery(schema, moved.document, operationName, { customJSONSerializer: false });
    if (!isCompiledQuery(compiled)) return undefined;
    const bytes = documentBytes(query) + fields * COMPILED_BYTES_PER_FIELD;
    graphqlCompiled.inc({ event: 'compiled' });
    return { compiled, bytes, ...(Object.keys(moved.literals).length > 0 ? { literals: moved.literals } : {}) };
  } catch {
    return undefined;
  }
}

/** The offset in `body` of a 1-based line and column, as graphql-js's getLocation counts lines. */
function offsetOf(body: string, line: number, column: number): number {
  const lineBreak = /\r\n|[\n\r]/g;
  let start = 0;
  for (let l = 1; l < line; l++) {
    if (!lineBreak.exec(body)) break;
    start = lineBreak.lastIndex;
  }
  return start + column - 1;
}

/**
 * graphql-jit's errors carry locations but no nodes, and yoga's serialiser rebuilds every error from its nodes, or
 * else from source and positions: each is rebuilt with the latter (before yoga masks it), so it keeps its locations.
 */
function withPositions(error: GraphQLError, source: Source | undefined): GraphQLError {
  if (error.positions !== undefined || !error.locations?.length || !source) return error;
  return new GraphQLError(error.message, {
    source,
    positions: error.locations.map((l) => offsetOf(source.body, l.line, l.column)),
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    ...(error.extensions ? { extensions: error.extensions } : {}),
  });
}

const SEEN = Symbol('seen once');
const UNUSABLE = Symbol('not compiled');

/** The compiled execution plugin; `size()` reports its table (entries and estimated bytes). */
export function useCompiledExecution(schema: GraphQLSchema): Plugin & { size(): { entries: number; bytes: number } } {
  // lru-cache marks a hit as recent without touching its Map; deleting and re-adding the key on every hit (as this
  // did) rebuilt the Map's table every few requests, and each table was promoted with the long-lived Map
  // keyed by the client's text: bounded in bytes too, so 500 distinct 32 KB documents (seen once or compiled) cannot
  // hold more than the budget
  const cache = new LRUCache<string, Entry | typeof SEEN | typeof UNUSABLE>({
    max: MAX_COMPILED,
    maxSize: COMPILED_CACHE_BYTES,
    sizeCalculation: (entry, key) => 64 + key.length + (typeof entry === 'symbol' ? 0 : entry.bytes),
  });

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      // the document's text as the client sent it (or as APQ found it by its hash); yoga's context carries it
      const query = (args.contextValue as { params?: { query?: unknown } } | undefined)?.params?.query;
      if (typeof query !== 'string') return;
      const operationName = args.operationName ?? undefined;
      const key = `${operationName ?? ''}\n${query}`;
      let entry = cache.get(key);
      if (entry === undefined) return void cache.set(key, SEEN);
      if (entry === SEEN) cache.set(key, (entry = compile(schema, query, args.document, operationName) ?? UNUSABLE));
      if (entry === UNUSABLE) return;
      const { compiled, literals } = entry;
      const interpret = executeFn;
      setExecuteFn(async (run: ExecutionArgs) => {
        const variables = run.variableValues ?? {};
        // Object.assign: V8 (Node 20) adds properties to a spread copy ten times slower. The body parser has refused
        // any `__proto__` key (Fastify's onProtoPoisoning), so no variable can reach the copy's prototype
        let result: ExecutionResult;
        try {
          result = await compiled.query(run.rootValue, run.contextValue, literals ? Object.assign({}, variables, literals) : variables);
        } catch {
          // graphql-jit catches resolvers' errors: what escapes is its own (variables it could not walk); a query only
          // reads, so graphql-js may answer it in its words
          return interpret(run) as Promise<ExecutionResult>;
        }
        // no data at all: the variables did not coerce and nothing ran; graphql-js words that answer
        if (result.data === undefined) return interpret(run) as Promise<ExecutionResult>;
        graphqlCompiled.inc({ event: 'executed' });
        if (!result.errors) return result;
        const source = run.document.loc?.source;
        return { errors: result.errors.map((e) => withPositions(e as GraphQLError, source)), data: result.data };
      });
    },
    size: () => ({ entries: cache.size, bytes: cache.calculatedSize }),
  };
}
