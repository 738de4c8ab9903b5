/**
 * acton's control API at acton's paths (../shared/reference/acton-localnet.md §1-§8): `/acton_<name>` at the
 * server root, GET with a query or POST with a JSON body, answered in TonCenter v2's envelope
 * (`{"ok":true,"result":…,"@extra":"<unix ms>"}`, failures `{"ok":false,"error":…,"code":<status>,"@extra":…}`),
 * so a client written for acton's localnet works unchanged against the local chain or a fork.
 *
 * Each method's parameters are declared once in ACTON_METHODS, as acton's request types declare them (facts read
 * from ton-blockchain/acton @5535f119, server/models.rs). A body that does not fit them is refused before the
 * method runs, as acton's JSON extractor refuses it: in plain text, 415 without a JSON content type, 400 when it
 * is not JSON, 422 when it does not fit (serde's words, without their line and column). Like acton, fields a
 * method does not know are ignored. An unknown `/acton_*` path answers 404 `Not Found` in the envelope; upstream
 * mode answers every method 404 saying it needs the local chain.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiError } from '../../api/errors.js';
import type { AccountStateChange, LocalnetControl, LocalnetWorkbench } from '../../api/localnet.js';

/** A field's type as acton's serde declares it. */
type Kind = 'string' | 'bool' | 'u32' | 'u64' | 'u128' | 'state';

interface Field {
  kind: Kind;
  /** absent is allowed (serde's Option or default) */
  optional?: true;
}

type Fields = Record<string, Field>;
type Input = Record<string, unknown>;

export interface ActonMethod {
  /** the path is `/acton_<name>` */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** the JSON body's fields (a POST without them takes no body), and acton's name for their type */
  readonly body?: Fields;
  readonly struct?: string;
  /** the query string's fields */
  readonly query?: Fields;
  /** the body is taken as it comes (a state file), up to this many bytes */
  readonly rawBodyLimit?: number;
  /** the answer is a bare JSON file with this name, not the envelope */
  readonly file?: string;
  run(w: LocalnetWorkbench, input: Input, raw: Buffer): Promise<unknown>;
}

const STATE_FILE_LIMIT = 256 * 1024 * 1024;
/** axum's default body limit, which every acton route but the two state uploads keeps */
const BODY_LIMIT = 2 * 1024 * 1024;

const str = { kind: 'string' } as const;

export const ACTON_METHODS: readonly ActonMethod[] = [
  { struct: 'FaucetRequest', name: 'fundAccount', method: 'POST', body: { address: str, amount: { kind: 'u128' } }, run: (w, b) => w.fundAccount(b.address as string, b.amount as bigint) },
  {
    struct: 'JettonFaucetRequest', name: 'fundJetton',
    method: 'POST',
    body: { address: str, jetton_master: str, amount: str },
    run: (w, b) => w.fundJetton(b.address as string, b.jetton_master as string, b.amount as string),
  },
  { struct: 'SendBocRequest', name: 'sendInternalMessage', method: 'POST', body: { boc: str }, run: (w, b) => w.sendInternalMessage(b.boc as string) },
  { struct: 'SetShardAccountRequest', name: 'setShardAccount', method: 'POST', body: { address: str, shard_account: str }, run: (w, b) => w.setShardAccount(b.address as string, b.shard_account as string) },
  {
    struct: 'ChangeAccountStateRequest', name: 'changeAccountState',
    method: 'POST',
    body: { address: str, state: { kind: 'state' }, mine: { kind: 'bool', optional: true } },
    run: (w, b) => w.changeAccountState(b.address as string, b.state as AccountStateChange, (b.mine as boolean | undefined) ?? true),
  },
  { struct: 'SetConfigRequest', name: 'setConfig', method: 'POST', body: { config: str }, run: (w, b) => w.setConfig(b.config as string) },
  // the body is optional: empty means one block (acton reads it by hand, not through its JSON extractor)
  { name: 'mine', method: 'POST', rawBodyLimit: BODY_LIMIT, run: (w, _b, raw) => w.mine(blocksOf(raw)) },
  { struct: 'SetMiningModeRequest', name: 'setMiningMode', method: 'POST', body: { skip_empty_blocks: { kind: 'bool' } }, run: (w, b) => w.setMiningMode(b.skip_empty_blocks as boolean) },
  { struct: 'IncreaseTimeRequest', name: 'increaseTime', method: 'POST', body: { seconds: { kind: 'u64' } }, run: (w, b) => w.increaseTime(Number(b.seconds)) },
  { struct: 'SetTimeRequest', name: 'setTime', method: 'POST', body: { timestamp: { kind: 'u32' } }, run: (w, b) => w.setTime(Number(b.timestamp)) },
  { struct: 'SetNextBlockTimestampRequest', name: 'setNextBlockTimestamp', method: 'POST', body: { timestamp: { kind: 'u32' } }, run: (w, b) => w.setNextBlockTimestamp(Number(b.timestamp)) },
  {
    struct: 'CreateCheckpointRequest', name: 'createCheckpoint',
    method: 'POST',
    body: { name: str, force: { kind: 'bool', optional: true } },
    run: (w, b) => w.createCheckpoint(b.name as string, (b.force as boolean | undefined) ?? false),
  },
  { name: 'listCheckpoints', method: 'GET', run: (w) => w.listCheckpoints() },
  { struct: 'CheckpointRequest', name: 'restoreCheckpoint', method: 'POST', body: { name: str }, run: (w, b) => w.restoreCheckpoint(b.name as string) },
  { struct: 'CheckpointRequest', name: 'deleteCheckpoint', method: 'POST', body: { name: str }, run: (w, b) => w.deleteCheckpoint(b.name as string) },
  { name: 'clearCheckpoints', method: 'POST', run: (w) => w.clearCheckpoints() },
  { name: 'exportCheckpoint', method: 'GET', query: { name: str }, file: 'acton-localnet-checkpoint.json', run: (w, q) => w.exportCheckpoint(q.name as string) },
  {
    name: 'importCheckpoint',
    method: 'POST',
    query: { name: str, force: { kind: 'bool', optional: true } },
    rawBodyLimit: STATE_FILE_LIMIT,
    run: (w, q, raw) => w.importCheckpoint(q.name as string, raw, (q.force as boolean | undefined) ?? false),
  },
  { name: 'dumpState', method: 'GET', file: 'acton-localnet-state.json', run: (w) => w.dumpState() },
  { name: 'loadState', method: 'POST', rawBodyLimit: STATE_FILE_LIMIT, run: (w, _b, raw) => w.loadState(raw) },
  { name: 'nodeInfo', method: 'GET', run: (w) => w.nodeInfo() },
  { struct: 'SetNetworkConditionsRequest', name: 'setNetworkConditions', method: 'POST', body: { response_delay_ms: { kind: 'u64' } }, run: (w, b) => w.setNetworkConditions(Number(b.response_delay_ms)) },
  { name: 'getStartupAccounts', method: 'GET', run: (w) => w.startupAccounts() },
];

/** A refusal in acton's envelope, or in plain text as its JSON extractor answers. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly plain = false,
  ) {
    super(message);
  }
}

const U_MAX: Record<'u32' | 'u64' | 'u128', bigint> = { u32: 2n ** 32n - 1n, u64: 2n ** 64n - 1n, u128: 2n ** 128n - 1n };
/** how a long integer reaches the decoder: JSON.parse would round it */
const EXACT = '\u0000int:';

/** serde's words for a JSON value of the wrong type. */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (typeof v === 'string') return v.startsWith(EXACT) ? `integer \`${v.slice(EXACT.length)}\`` : `string ${JSON.stringify(v)}`;
  return Array.isArray(v) ? 'sequence' : 'map';
}

/** One field's value as its kind takes it, or serde's words for why not. */
function decodeField(name: string, kind: Kind, v: unknown): unknown {
  const wrong = (expected: string) => new Refusal(422, `invalid type: ${describe(v)}, expected ${expected}`);
  switch (kind) {
    case 'string':
      if (typeof v !== 'string' || v.startsWith(EXACT)) throw wrong('a string');
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw wrong('a boolean');
      return v;
    case 'u32':
    case 'u64':
    case 'u128': {
      const text = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' && v.startsWith(EXACT) ? v.slice(EXACT.length) : undefined;
      if (text === undefined) throw wrong(kind);
      const n = BigInt(text);
      if (n < 0n || n > U_MAX[kind]) throw new Refusal(422, `invalid value: integer \`${text}\`, expected ${kind}`);
      return n;
    }
    case 'state':
      return decodeState(v);
  }
  throw new Refusal(422, `unknown field \`${name}\``);
}

/** changeAccountState's `state`: an object tagged by `type`. */
function decodeState(v: unknown): AccountStateChange {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Refusal(422, `invalid type: ${describe(v)}, expected internally tagged enum ChangeAccountStatePayload`);
  const o = v as Input;
  if (o.type === undefined) throw new Refusal(422, 'missing field `type`');
  const optionalString = (k: string) => (o[k] === undefined || o[k] === null ? undefined : (decodeField(k, 'string', o[k]) as string));
  switch (o.type) {
    case 'nonexist':
      return { type: 'nonexist' };
    case 'uninit': {
      const balance = optionalString('balance');
      return balance === undefined ? { type: 'uninit' } : { type: 'uninit', balance };
    }
    case 'frozen': {
      const out: AccountStateChange = { type: 'frozen' };
      for (const k of ['source', 'frozen_hash', 'balance'] as const) {
        const s = optionalString(k);
        if (s !== undefined) out[k] = s;
      }
      return out;
    }
    default:
      throw new Refusal(422, `unknown variant \`${String(o.type)}\`, expected one of \`nonexist\`, \`uninit\`, \`frozen\``);
  }
}

/** The fields of an object by their declaration; absent optional ones stay absent, others are refused. */
function decodeFields(obj: unknown, fields: Fields, struct: string): Input {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new Refusal(422, `invalid type: ${describe(obj)}, expected struct ${struct}`);
  const out: Input = {};
  for (const [name, f] of Object.entries(fields)) {
    const v = (obj as Input)[name];
    if (v === undefined || (v === null && f.optional)) {
      if (!f.optional) throw new Refusal(422, `missing field \`${name}\``);
      continue;
    }
    out[name] = decodeField(name, f.kind, v);
  }
  return out;
}

/**
 * The body's JSON with every integer too long for a double kept exact: outside strings, an integer of 16 digits
 * or more is handed to JSON.parse as a marked string.
 */
export function parseExact(text: string): unknown {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))!;
      const token = m[0] || c;
      out += !m[1] && !m[2] && token.replace('-', '').length >= 16 ? JSON.stringify(EXACT + token) : token;
      i += token.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

/** acton_mine's optional body: empty means one block; its own parse failure is a 500 in the envelope. */
function blocksOf(raw: Buffer): number {
  if (raw.length === 0) return 1;
  let blocks: unknown;
  try {
    const body = decodeFields(parseExact(raw.toString('utf8')), { blocks: { kind: 'u32', optional: true } }, 'MineBlocksRequest');
    blocks = body.blocks;
  } catch (e) {
    throw new Refusal(500, `Invalid mine request JSON: ${(e as Error).message}`);
  }
  return blocks === undefined ? 1 : Number(blocks);
}

/** A JSON body as acton's extractor takes it: a JSON content type, valid JSON, fitting the fields. */
function bodyOf(req: FastifyRequest, raw: Buffer, fields: Fields, struct: string): Input {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json')))) {
    throw new Refusal(415, 'Expected request with `Content-Type: application/json`', true);
  }
  let parsed: unknown;
  try {
    parsed = parseExact(raw.toString('utf8'));
  } catch (e) {
    throw new Refusal(400, `Failed to parse the request body as JSON: ${(e as Error).message}`, true);
  }
  try {
    return decodeFields(parsed, fields, struct);
  } catch (e) {
    throw e instanceof Refusal ? new Refusal(422, `Failed to deserialize the JSON body into the target type: ${e.message}`, true) : e;
  }
}

/** A query string's fields, strings as they come and booleans as `true`/`false`. */
function queryOf(req: FastifyRequest, fields: Fields): Input {
  const q = (req.query ?? {}) as Record<string, string | string[] | undefined>;
  const out: Input = {};
  try {
    for (const [name, f] of Object.entries(fields)) {
      const v = Array.isArray(q[name]) ? q[name]![0] : q[name];
      if (v === undefined) {
        if (!f.optional) throw new Refusal(400, `missing field \`${name}\``);
        continue;
      }
      if (f.kind === 'bool') {
        if (v !== 'true' && v !== 'false') throw new Refusal(400, `invalid type: string ${JSON.stringify(v)}, expected a boolean`);
        out[name] = v === 'true';
      } else out[name] = v;
    }
  } catch (e) {
    throw e instanceof Refusal ? new Refusal(400, `Failed to deserialize query string: ${e.message}`, true) : e;
  }
  return out;
}

/** JSON with bigints written as JSON integers (acton's i64 shard ids, u128 amounts). */
export function exactJson(value: unknown): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    marks.push(v.toString());
    return `\u0000big:${marks.length - 1}`;
  });
  return text.replace(/"\\u0000big:(\d+)"/g, (_m, i: string) => marks[Number(i)]!);
}

const extra = (): string => String(Date.now());

function envelope(reply: FastifyReply, status: number, body: object): FastifyReply {
  return reply.code(status).type('application/json').send(exactJson(body));
}

function failure(reply: FastifyReply, status: number, error: string): FastifyReply {
  return envelope(reply, status, { ok: false, error, code: status, '@extra': extra() });
}

/** Registers every acton method, and 404 `Not Found` for any other `/acton_*` path. */
export function registerActonRoutes(app: FastifyInstance, control: (() => LocalnetControl | undefined) | undefined): void {
  void app.register(async (scope) => {
    // bodies are read as they come: each method decodes its own, as acton's extractors do
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    for (const m of ACTON_METHODS) {
      const path = `/acton_${m.name}`;
      const bodyLimit = m.rawBodyLimit ?? BODY_LIMIT;
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        if (!control) return failure(reply, 404, `${path} needs the local chain: this gateway serves upstream mode (BACKEND=localnet serves a local chain or a fork)`);
        const c = control();
        if (!c) return failure(reply, 503, 'local chain is starting');
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        try {
          const input = m.query ? queryOf(req, m.query) : m.body ? bodyOf(req, raw, m.body, m.struct ?? m.name) : {};
          const result = await m.run(c.workbench, input, raw);
          if (m.file) {
            return reply.code(200).header('content-type', 'application/json').header('content-disposition', `attachment; filename=${m.file}`).send(result as Buffer);
          }
          return envelope(reply, 200, { ok: true, result, '@extra': extra() });
        } catch (e) {
          if (e instanceof Refusal) return e.plain ? reply.code(e.status).type('text/plain; charset=utf-8').send(e.message) : failure(reply, e.status, e.message);
          if (isApiError(e)) return failure(reply, e.status, e.message);
          req.log.error({ err: e }, `${path} failed`);
          return failure(reply, 500, (e as Error).message);
        }
      };
      scope.route({ method: m.method, url: path, bodyLimit, handler });
      // another method on a known path: 405 without a body, as acton's router answers
      scope.route({ method: m.method === 'GET' ? 'POST' : 'GET', url: path, handler: async (_req, reply) => reply.code(405).header('allow', m.method).send() });
    }
    scope.all('/acton_*', async (_req, reply) => failure(reply, 404, 'Not Found'));
  });
}
