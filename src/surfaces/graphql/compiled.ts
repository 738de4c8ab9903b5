/**
 * Compiled queries: a query document seen before is parsed, validated and compiled with graphql-jit once, kept
 * in a bounded LRU, and then executed directly with the request's variables and context: none of yoga's
 * per-operation machinery runs. Anything this path cannot answer exactly as yoga would goes back to the caller
 * (undefined) before a resolver has run: a document seen for the first time, one that does not compile, a
 * mutation or subscription, an answer that may be cached for good (its caching verdict is yoga's plugin's),
 * limits exceeded, variables that do not coerce.
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
  parse,
  specifiedRules,
  validate,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { readsOnlyFinalData } from './caching.js';
import { documentBytes } from './document-cache.js';
import { expandedFieldCount } from './expansion.js';
import { LIMITS, aliasLimitRule, documentNesting, measureCached } from './limits.js';

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
  document: DocumentNode;
  compiled: CompiledQuery;
  /** estimated heap of the document and its compiled code */
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
 * Parses, validates and compiles a document as yoga would accept it; undefined when this path must not answer it.
 * Its expanded size is measured right after parsing: one past `maxFields` is yoga's to refuse, one past
 * COMPILE_MAX_FIELDS yoga's to interpret, and neither is validated or compiled here.
 */
function compile(schema: GraphQLSchema, query: string, operationName: string | undefined, maxFields: number): Entry | undefined {
  if (INTROSPECTION.test(query) || documentNesting(query, LIMITS.maxNesting) > LIMITS.maxNesting) return undefined;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: LIMITS.maxTokens });
  } catch {
    return undefined;
  }
  const fields = expandedFieldCount(document, Math.min(maxFields, COMPILE_MAX_FIELDS));
  if (fields > maxFields || fields > COMPILE_MAX_FIELDS) return undefined;
  if (validate(schema, document, [...specifiedRules, aliasLimitRule]).length > 0) return undefined;
  if (getOperationAST(document, operationName)?.operation !== 'query') return undefined;
  if (readsOnlyFinalData(schema, document, operationName)) return undefined;
  const moved = withLiteralsAsVariables(schema, document);
  if (!moved) return undefined;
  try {
    const compiled = compileQuery(schema, moved.document, operationName, { customJSONSerializer: false });
    if (!isCompiledQuery(compiled)) return undefined;
    const bytes = documentBytes(query) + fields * COMPILED_BYTES_PER_FIELD;
    return { document, compiled, bytes, ...(Object.keys(moved.literals).length > 0 ? { literals: moved.literals } : {}) };
  } catch {
    return undefined;
  }
}

export interface CompiledParams {
  query: string;
  variables?: Record<string, unknown>;
  /** null in a body is read as absent */
  operationName?: string;
}

export interface CompiledPathOptions {
  /** a fresh context for one query (Pothos' context caches keep the request's loaders on it) */
  context: (req: FastifyRequest, reply: FastifyReply) => object;
  /** yoga's error masking, applied to every error of an answer */
  maskError: (error: GraphQLError, message: string) => Error;
  /** field nodes of an operation with its fragments expanded (default LIMITS.maxFields) */
  maxFields?: number;
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
 * else from source and positions: the answer's error is rebuilt with the latter, so it keeps its locations.
 */
function withLocations(masked: GraphQLError, original: GraphQLError, source: Source | undefined): GraphQLError {
  if (masked.positions !== undefined || !original.locations?.length || !source) return masked;
  return new GraphQLError(masked.message, {
    source,
    positions: original.locations.map((l) => offsetOf(source.body, l.line, l.column)),
    path: masked.path,
    originalError: masked.originalError,
    extensions: masked.extensions,
  });
}

const SEEN = Symbol('seen once');
const UNUSABLE = Symbol('not compiled');

export function createCompiledPath(schema: GraphQLSchema, options: CompiledPathOptions) {
  // lru-cache marks a hit as recent without touching its Map; deleting and re-adding the key on every hit (as this
  // did) rebuilt the Map's table every few requests, and each table was promoted with the long-lived Map
  // keyed by the client's text: bounded in bytes too, so 500 distinct 32 KB documents (seen once or compiled) cannot
  // hold more than the budget
  const cache = new LRUCache<string, Entry | typeof SEEN | typeof UNUSABLE>({
    max: MAX_COMPILED,
    maxSize: COMPILED_CACHE_BYTES,
    sizeCalculation: (entry, key) => 64 + key.length + (typeof entry === 'symbol' ? 0 : entry.bytes),
  });
  const maxFields = options.maxFields ?? LIMITS.maxFields;

  /** The result of an eligible request, or undefined (before any resolver ran) when yoga must answer it. */
  return async function execute(params: CompiledParams, req: FastifyRequest, reply: FastifyReply): Promise<ExecutionResult | undefined> {
    const operationName = params.operationName ?? undefined;
    const key = `${operationName ?? ''}\n${params.query}`;
    let entry = cache.get(key);
    if (entry === undefined) return void cache.set(key, SEEN);
    if (entry === SEEN) cache.set(key, (entry = compile(schema, params.query, operationName, maxFields) ?? UNUSABLE));
    if (entry === UNUSABLE) return undefined;
    const contextValue = options.context(req, reply);
    const variables = params.variables ?? {};
    // limit errors, and variables the cost rule cannot read, are answered by yoga's plugin, in its words
    if (measureCached({ schema, document: entry.document, variableValues: variables, operationName, contextValue }).length > 0) return undefined;
    // Object.assign: V8 (Node 20) adds properties to a spread copy ten times slower. The body parser has refused
    // any `__proto__` key (Fastify's onProtoPoisoning), so no variable can reach the copy's prototype
    const result = await entry.compiled.query(undefined, contextValue, entry.literals ? Object.assign({}, variables, entry.literals) : variables);
    // no data at all: the variables did not coerce and nothing ran
    if (result.data === undefined) return undefined;
    if (!result.errors) return result;
    // graphql-js's order: errors first
    return { errors: result.errors.map((e) => withLocations(options.maskError(e, 'Unexpected error.') as GraphQLError, e, entry.document.loc?.source)), data: result.data };
  };
}
