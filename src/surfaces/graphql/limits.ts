/**
 * The bounds every request must fit, checked before execution and published in `serviceConfig`.
 * Cost is the complexity plugin's: each field costs 1 and a connection multiplies its selection by its page
 * size (Sui's output-node rule); the query of the batching bound costs 9,611.
 */
import { createComplexityRule } from '@pothos/plugin-complexity';
import { GraphQLError, Source, validate, type DocumentNode, type ExecutionArgs, type ExecutionResult, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { ErrorCode, badInput } from './errors.js';
import { expandedFieldCount, expansionError } from './expansion.js';

export const LIMITS = {
  maxDepth: 16,
  maxCost: 50_000,
  maxAliases: 30,
  /** bytes of the GraphQL document */
  maxQueryBytes: 32 * 1024,
  /** brackets ({ [ () open at once in a document: past it graphql-js's recursive parser would overflow the stack */
  maxNesting: 64,
  /** tokens graphql-js's parser reads before it gives up (its `maxTokens`) */
  maxTokens: 10_000,
  /**
   * field nodes of an operation once its fragments are expanded (default; `--max-query-fields`): a fragment spread
   * under three fields of a fragment spread under three fields... is 3^k fields for k lines of document. The
   * largest document the explorer sends expands to 195, the full introspection query to 229.
   */
  maxFields: 5_000,
  /** bytes of the whole HTTP body (document, variables, operation name) */
  maxRequestBytes: 128 * 1024,
  defaultPageSize: 20,
  maxPageSize: 100,
  /** addresses in `accounts`, ids in `nodes` */
  maxListArgument: 100,
  /** cost multiplier of a list that is not a connection and has no better estimate */
  listMultiplier: 10,
  /** cost multipliers of the lists whose typical length is known */
  shardsMultiplier: 8,
  outMessagesMultiplier: 4,
} as const;

/** The page size a connection's arguments ask for, as complexity counts it. */
export function pageSizeOf(args: { first?: unknown; last?: unknown }): number {
  const n = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : LIMITS.defaultPageSize;
  return Math.max(0, Math.min(n, LIMITS.maxPageSize));
}

/** Checks a connection's first/last: one of them, 0..maxPageSize. */
export function checkPageArgs(args: { first?: number | null; last?: number | null }): void {
  if (args.first != null && args.last != null) throw badInput('give either first or last, not both');
  for (const [name, v] of [['first', args.first], ['last', args.last]] as const) {
    if (v != null && (v < 0 || v > LIMITS.maxPageSize)) {
      throw badInput(`${name} must be between 0 and ${LIMITS.maxPageSize}, got ${v}`);
    }
  }
}

export function checkListArg(name: string, list: readonly unknown[]): void {
  if (list.length > LIMITS.maxListArgument) {
    throw badInput(`${name} takes at most ${LIMITS.maxListArgument} items, got ${list.length}`);
  }
}

export const aliasLimitRule: ValidationRule = (context) => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias && ++aliases === LIMITS.maxAliases + 1) {
        context.reportError(
          new GraphQLError(`Query uses more than ${LIMITS.maxAliases} aliases`, {
            nodes: node,
            extensions: { code: ErrorCode.TOO_MANY_ALIASES, limit: LIMITS.maxAliases },
          }),
        );
      }
    },
  };
};

function limitError(message: string, code: ErrorCode, actual: number, limit: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code, actual, limit } });
}

/** The rule reports a missing or uncoercible variable without a code; that is the client's input. */
const coded = (e: GraphQLError): GraphQLError =>
  e.extensions?.code ? e : new GraphQLError(e.message, { nodes: e.nodes, extensions: { ...e.extensions, code: ErrorCode.BAD_USER_INPUT } });

/**
 * Depth and cost read this request's variables (a page size may be one), so they are measured per execution,
 * after validation, whose result yoga caches per document; nothing has been fetched yet. Returns the errors.
 */
function measure(args: ExecutionArgs): GraphQLError[] {
  const rule = createComplexityRule({
    context: args.contextValue as object,
    variableValues: (args.variableValues ?? {}) as Record<string, unknown>,
    operationName: args.operationName ?? null,
    validate: ({ depth, complexity }, report) => {
      if (depth > LIMITS.maxDepth) {
        report(limitError(`Query depth ${depth} exceeds the maximum of ${LIMITS.maxDepth}`, ErrorCode.QUERY_TOO_DEEP, depth, LIMITS.maxDepth));
      }
      if (complexity > LIMITS.maxCost) {
        report(
          limitError(
            `Query cost ${complexity} exceeds the maximum of ${LIMITS.maxCost} (a connection multiplies its selection by its page size)`,
            ErrorCode.QUERY_TOO_COMPLEX,
            complexity,
            LIMITS.maxCost,
          ),
        );
      }
    },
  });
  try {
    return validate(args.schema, args.document, [rule]).map(coded);
  } catch (e) {
    // a variable that does not coerce surfaces here; execution would reject it the same way
    if (e instanceof GraphQLError) return [coded(e)];
    throw e;
  }
}

/**
 * Measuring walks the whole document with the schema's type info, which costs more than executing a small query,
 * so verdicts are kept per document (the document cache, src/surfaces/graphql/document-cache.ts, hands back the
 * same DocumentNode for the same text) and per *shape* of the variables: strings blanked, numbers, booleans, nulls
 * and list lengths kept. Depth and cost depend on nothing else (page sizes are numbers, `accounts`/`nodes` cost their list's length), so one verdict
 * holds for every request of the same shape. A verdict is kept only when the variables coerced: whether this
 * request's values coerce (a bad address) is then left to execution, whose errors `codeInputErrors` codes.
 * Verdicts of every document share one table bounded in bytes (a shape holds the variables' numbers and list
 * lengths, so a client could make its keys long): a client varying its variables without end only turns it over.
 */
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;
/** bytes of verdicts kept, counted as their keys' length plus a flat charge per verdict and per error */
export const VERDICT_CACHE_BYTES = 4 * 1024 * 1024;
/** a shape key longer than this is measured every time rather than kept */
const MAX_SHAPE_KEY = 4 * 1024;
const verdicts = new LRUCache<string, readonly GraphQLError[]>({
  max: 20_000,
  maxSize: VERDICT_CACHE_BYTES,
  sizeCalculation: (errors, key) => key.length + 128 + errors.length * 512,
});

const blankStrings = (_key: string, value: unknown): unknown => (typeof value === 'string' ? '' : value);

const isLimitError = (e: GraphQLError): boolean =>
  e.extensions.code === ErrorCode.QUERY_TOO_DEEP || e.extensions.code === ErrorCode.QUERY_TOO_COMPLEX;

/**
 * The shape of variables that are all strings (addresses, hashes: the common case) is their names alone: the names,
 * each ended by a NUL, behind a NUL, which JSON text never starts with. Undefined for any other variables, or a name
 * holding a NUL itself.
 */
function stringVariableNames(variables: Record<string, unknown>): string | undefined {
  let names = '\u0000';
  for (const name in variables) {
    if (typeof variables[name] !== 'string' || !Object.hasOwn(variables, name) || name.includes('\u0000')) return undefined;
    names += `${name}\u0000`;
  }
  return names;
}

/** The shape key of a request, or undefined for variables too deeply nested to walk (measured uncached). */
function shapeKey(args: ExecutionArgs): string | undefined {
  const names = args.variableValues && stringVariableNames(args.variableValues);
  if (names !== undefined) return `${args.operationName ?? ''}\n${names}`;
  try {
    return `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {}, blankStrings)}`;
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

export function measureCached(args: ExecutionArgs): readonly GraphQLError[] {
  const shape = shapeKey(args);
  if (shape === undefined || shape.length > MAX_SHAPE_KEY) return measure(args);
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  const key = `${id}\n${shape}`;
  const known = verdicts.get(key);
  if (known) return known;
  const errors = measure(args);
  // a coercion error belongs to this request's values, not to the shape
  if (errors.every(isLimitError)) verdicts.set(key, errors);
  return errors;
}

/**
 * An execution that ends with errors and no `data` never started: its variables did not coerce or no single
 * operation was chosen. Both are the client's input, coded as the measuring step codes them.
 */
function codeInputErrors(result: ExecutionResult): ExecutionResult | undefined {
  if (result.data !== undefined || !result.errors?.some((e) => !e.extensions?.code)) return undefined;
  return { ...result, errors: result.errors.map(coded) };
}

/**
 * The deepest bracket nesting of a GraphQL document, counted without parsing it: strings, block strings and
 * comments are skipped. Stops counting once past `limit` (returns limit + 1).
 */
export function documentNesting(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        // a block string ends at the first """ not escaped as \"""
        for (i += 3; i < text.length && !text.startsWith('"""', i); i++) if (text.startsWith('\\"""', i)) i += 3;
        i += 2;
      } else {
        for (i++; i < text.length; i++) {
          const d = text.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        }
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28 /* { [ ( */) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 0x7d || c === 0x5d || c === 0x29 /* } ] ) */) {
      // a stray closer is the parser's syntax error before any nesting after it matters
      if (depth > 0) depth--;
    }
  }
  return max;
}

/** A parse failure in yoga's own shape: yoga adds the HTTP status to it when a request is at hand. */
const parseFailed = (message: string): GraphQLError => new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });

/**
 * graphql-js parses recursively, so a document of 10,000 nested list literals or selections overflows the
 * stack (a RangeError yoga would mask as an internal error). Nesting is measured on the raw text first, tokens
 * are capped by the parser's own `maxTokens`, and anything the parser still throws that is not a GraphQLError
 * is reported as the parse failure it is.
 */
function boundedParse<A extends unknown[], R>(parse: (source: string | Source, options?: { maxTokens?: number }, ...rest: A) => R) {
  return (source: string | Source, options?: { maxTokens?: number }, ...rest: A): R => {
    const text = typeof source === 'string' ? source : source.body;
    const nesting = documentNesting(text, LIMITS.maxNesting);
    if (nesting > LIMITS.maxNesting) {
      throw parseFailed(`Syntax Error: the document nests brackets more than ${LIMITS.maxNesting} levels deep, the limit of this service`);
    }
    try {
      return parse(source, { ...options, maxTokens: Math.min(options?.maxTokens ?? Infinity, LIMITS.maxTokens) }, ...rest);
    } catch (e) {
      if (e instanceof GraphQLError) throw e;
      throw parseFailed(`Syntax Error: the document could not be parsed (${e instanceof RangeError ? 'nested too deep' : 'unreadable'})`);
    }
  };
}

export interface LimitOptions {
  /** field nodes of an operation with its fragments expanded; default LIMITS.maxFields */
  maxFields?: number;
}

/**
 * Yoga plugin: size, expanded size, aliases, depth and cost, all rejected before execution (or, for a subscription,
 * before it opens).
 */
export function useLimits(options: LimitOptions = {}): Plugin {
  const maxFields = options.maxFields ?? LIMITS.maxFields;
  /** documents measured within maxFields (a cached document comes back as the same object) */
  const withinFields = new WeakSet<DocumentNode>();
  return {
    onParams({ params }) {
      // a query that is not a string is yoga's to refuse (400); measuring it would throw
      if (typeof params.query !== 'string') return;
      const bytes = Buffer.byteLength(params.query);
      if (bytes > LIMITS.maxQueryBytes) {
        throw new GraphQLError(`Query document is ${bytes} bytes, more than the ${LIMITS.maxQueryBytes} allowed`, {
          extensions: { code: ErrorCode.REQUEST_TOO_LARGE, actual: bytes, limit: LIMITS.maxQueryBytes, http: { status: 413 } },
        });
      }
    },
    onParse({ parseFn, setParseFn }) {
      setParseFn(boundedParse(parseFn));
    },
    onValidate({ params, addValidationRule, setResult }) {
      // The expanded size, before validation runs (its rules walk fragments as often as they are spread) and before
      // anything keeps the document: parsing is bounded by tokens, this count is linear in the document
      if (!withinFields.has(params.documentAST)) {
        if (expandedFieldCount(params.documentAST, maxFields) > maxFields) return void setResult([expansionError(maxFields)]);
        withinFields.add(params.documentAST);
      }
      // the alias count is a property of the document alone, so its verdict may be cached with the document's
      addValidationRule(aliasLimitRule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const errors = measureCached(args);
      if (errors.length > 0) {
        setResultAndStopExecution({ errors: [...errors] });
        return undefined;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const coded = codeInputErrors(result);
          if (coded) setResult(coded);
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = measureCached(args);
      if (errors.length > 0) setResultAndStopExecution({ errors: [...errors] });
    },
  };
}
