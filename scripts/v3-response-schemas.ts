/**
 * The v3 response schemas, generated from the project's own wire types: for every route of V3_DESCRIPTORS, the
 * exported type of src/api/v3 named by its `response` (compared without case: `NFTItemsResponse` is
 * `NftItemsResponse`), read with the TypeScript checker and written as swagger-style JSON Schema
 * (`#/definitions/X` refs) to src/surfaces/rest/v3-response-schemas.json, which the served /api/v3/openapi.json
 * is built from. Interfaces and object type aliases of src/api/v3 become definitions under their own names; a
 * property's doc comment becomes its description, and a `@pattern` tag its pattern. TypeScript's `number` is
 * JSON's integer unless its member is tagged `@fractional`. A route's type must be what its source method answers (or, for a
 * route that reshapes the answer, what `answer` returns): the generator checks assignability and stops otherwise.
 *
 * `npm run v3-schemas` writes the file; `--check` only compares (the file is committed, a test compares it too).
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { V3_DESCRIPTORS } from '../src/api/v3/index.js';
import { writeOrCheck } from './lib/generated-file.js';

type Json = Record<string, unknown>;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const API_DIR = join(ROOT, 'src/api/v3');
export const V3_SCHEMAS_FILE = join(ROOT, 'src/surfaces/rest/v3-response-schemas.json');

const inApi = (d: ts.Declaration | undefined): boolean => !!d && !relative(API_DIR, d.getSourceFile().fileName).startsWith('..');

class Generator {
  readonly definitions: Record<string, Json> = {};
  /** definition name of each named type, given when first met */
  private readonly names = new Map<ts.Symbol, string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** The schema of `type`: a `$ref` for a named object type of src/api/v3, inline otherwise. */
  schema(type: ts.Type): Json {
    const c = this.checker;
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    const named = this.namedSymbol(type);
    if (named) return this.ref(named, type);
    if (type.isUnion()) return this.union(type);
    return this.inline(type, c);
  }

  /** The symbol naming `type` when it is an object type declared in src/api/v3 (not a generic instantiation). */
  private namedSymbol(type: ts.Type): ts.Symbol | undefined {
    if (type.aliasSymbol) {
      return !type.aliasTypeArguments && inApi(type.aliasSymbol.declarations?.[0]) && this.objectLike(type) ? type.aliasSymbol : undefined;
    }
    const s = type.getSymbol();
    if (!s || !(s.flags & ts.SymbolFlags.Interface) || !inApi(s.declarations?.[0])) return undefined;
    return (type as ts.TypeReference).typeArguments?.length ? undefined : s;
  }

  private objectLike(type: ts.Type): boolean {
    if (type.isUnion()) return type.types.every((t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined) || this.objectLike(t));
    return !!(type.flags & ts.TypeFlags.Object) || type.isIntersection();
  }

  /** Names the definition of `symbol` (the root's route name when given) and fills it once. */
  ref(symbol: ts.Symbol, type: ts.Type, name = this.names.get(symbol) ?? symbol.getName()): Json {
    if (!this.names.has(symbol)) {
      this.names.set(symbol, name);
      this.definitions[name] = {}; // reserved: a type may refer to itself
      const body = type.isUnion() ? this.union(type) : this.inline(type, this.checker);
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
      this.definitions[name] = doc ? { ...body, description: doc } : body;
    }
    return { $ref: `#/definitions/${this.names.get(symbol)}` };
  }

  /** `null`/`undefined` dropped (every member may be null on the wire); literals as enums; `true | false` as boolean. */
  private union(type: ts.UnionType): Json {
    const members = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const bools = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
    const strings = rest.filter((t): t is ts.StringLiteralType => t.isStringLiteral());
    const numbers = rest.filter((t): t is ts.NumberLiteralType => t.isNumberLiteral());
    const others = rest.filter((t) => !t.isStringLiteral() && !t.isNumberLiteral());
    const parts: Json[] = [];
    if (bools.length) parts.push({ type: 'boolean' });
    if (strings.length) parts.push({ type: 'string', enum: strings.map((t) => t.value) });
    if (numbers.length) parts.push({ type: 'integer', enum: numbers.map((t) => t.value) });
    for (const t of others) parts.push(this.schema(t));
    const one = distinct(parts);
    return one.length === 1 ? one[0]! : { anyOf: one };
  }

  private inline(type: ts.Type, c: ts.TypeChecker): Json {
    const f = type.flags;
    if (f & ts.TypeFlags.StringLike) return type.isStringLiteral() ? { type: 'string', enum: [type.value] } : { type: 'string' };
    if (f & ts.TypeFlags.NumberLike) return type.isNumberLiteral() ? { type: 'integer', enum: [type.value] } : { type: 'integer' };
    if (f & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (f & (ts.TypeFlags.BigIntLike | ts.TypeFlags.ESSymbolLike | ts.TypeFlags.Void | ts.TypeFlags.Never)) {
      throw new Error(`${c.typeToString(type)} has no JSON form`);
    }
    if (c.isArrayType(type) || c.isTupleType(type)) {
      const args = c.getTypeArguments(type as ts.TypeReference);
      if (c.isArrayType(type)) return { type: 'array', items: this.schema(args[0]!) };
      const members = distinct(args.map((t) => this.schema(t)));
      return { type: 'array', items: members.length === 1 ? members[0]! : { anyOf: members } };
    }
    if (type.getCallSignatures().length) throw new Error(`${c.typeToString(type)} is a function, not JSON`);
    const symbol = type.getSymbol();
    const declared = symbol && symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface) ? (symbol.declarations?.[0]?.getSourceFile().fileName ?? '') : '';
    if (declared.includes('node_modules')) throw new Error(`${c.typeToString(type)} (${declared}) is not a wire type`);
    const out: Json = { type: 'object' };
    const properties: Record<string, Json> = {};
    for (const p of c.getPropertiesOfType(type)) {
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      const t = decl ? c.getTypeOfSymbolAtLocation(p, decl) : c.getTypeOfSymbol(p);
      let s: Json;
      try {
        s = this.schema(t);
      } catch (e) {
        throw new Error(`${p.getName()}: ${(e as Error).message}`);
      }
      const doc = ts.displayPartsToString(p.getDocumentationComment(c)).trim();
      const pattern = p.getJsDocTags(c).find((tag) => tag.name === 'pattern');
      if (pattern) s = { ...s, pattern: ts.displayPartsToString(pattern.text).trim() };
      // `@fractional`: a number that is not an integer (the one such member is a complaint's approved_percent)
      if (p.getJsDocTags(c).some((tag) => tag.name === 'fractional') && s.type === 'integer') s = { ...s, type: 'number' };
      if (doc) s = s.$ref ? { allOf: [s], description: doc } : { ...s, description: doc };
      properties[p.getName()] = s;
    }
    if (Object.keys(properties).length) out.properties = properties;
    const index = c.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (index) out.additionalProperties = this.schema(index.type);
    return out;
  }
}

/** Schemas without repeats, in order. */
function distinct(schemas: Json[]): Json[] {
  return schemas.filter((p, i) => schemas.findIndex((q) => JSON.stringify(q) === JSON.stringify(p)) === i);
}

/** Every exported type of src/api/v3 by lower-cased name. */
function exportedTypes(program: ts.Program, checker: ts.TypeChecker): Map<string, ts.Symbol> {
  const out = new Map<string, ts.Symbol>();
  for (const sf of program.getSourceFiles()) {
    if (!inApi(sf as unknown as ts.Declaration)) continue;
    const module = checker.getSymbolAtLocation(sf);
    for (const s of module ? checker.getExportsOfModule(module) : []) {
      if (s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) out.set(s.getName().toLowerCase(), s);
    }
  }
  return out;
}

/** The definitions of every v3 route's response and the types they refer to, keyed by definition name. */
export function generateV3ResponseSchemas(): Record<string, Json> {
  const program = ts.createProgram([join(API_DIR, 'index.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const types = exportedTypes(program, checker);
  // the methods as sources declare them (V3Api is the same methods with read-only answers)
  const api = types.get('v3methods');
  if (!api) throw new Error('src/api/v3 exports no V3Methods');
  const apiType = checker.getDeclaredTypeOfSymbol(api);
  const gen = new Generator(checker);
  for (const r of V3_DESCRIPTORS) {
    const name = r.response.replace(/\[\]$/, '');
    const symbol = types.get(name.toLowerCase());
    if (!symbol) throw new Error(`${r.path}: src/api/v3 exports no type ${name}`);
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    if (!r.answer) {
      const method = apiType.getProperty(r.api);
      const sig = method && checker.getTypeOfSymbol(method).getCallSignatures()[0];
      const answered = sig && checker.getAwaitedType(sig.getReturnType());
      // for `Name[]`, the answer's element type
      const one =
        answered && r.response.endsWith('[]')
          ? checker.isArrayType(answered)
            ? checker.getTypeArguments(answered as ts.TypeReference)[0]
            : undefined
          : answered;
      if (!one || !checker.isTypeAssignableTo(one, type)) {
        throw new Error(`${r.path}: V3Api.${r.api} does not answer ${r.response}`);
      }
    }
    gen.ref(symbol, type, name);
  }
  return Object.fromEntries(Object.entries(gen.definitions).sort(([a], [b]) => a.localeCompare(b)));
}

export function v3SchemasText(): string {
  return `${JSON.stringify({ generated: 'by scripts/v3-response-schemas.ts from the types of src/api/v3; do not edit', definitions: generateV3ResponseSchemas() }, null, 1)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) writeOrCheck(V3_SCHEMAS_FILE, v3SchemasText(), 'v3-schemas');
