/**
 * A client of acton's localnet control API written from its reference (../shared/reference/acton-localnet.md):
 * `/acton_<name>` at the server root, GET with a query or POST with a JSON body, TonCenter v2's envelope. It
 * returns what came back, whole (status, parsed body or text, headers), for the tests to check against the
 * reference; it never interprets an error.
 */
export interface ActonAnswer {
  status: number;
  /** the parsed JSON body, or the text when it is not JSON */
  body: any;
  headers: Headers;
}

export class ActonClient {
  constructor(readonly base: string) {}

  private async call(path: string, init: RequestInit): Promise<ActonAnswer> {
    const res = await fetch(`${this.base}${path}`, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // plain text: an extractor's refusal
    }
    return { status: res.status, body, headers: res.headers };
  }

  /** POST /acton_<name> with a JSON body (a string is sent as it is). */
  post(name: string, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<ActonAnswer> {
    return this.call(`/acton_${name}`, { method: 'POST', headers: body === undefined ? {} : headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  }

  get(name: string, query: Record<string, string> = {}): Promise<ActonAnswer> {
    const qs = new URLSearchParams(query).toString();
    return this.call(`/acton_${name}${qs ? `?${qs}` : ''}`, { method: 'GET' });
  }

  /** The `result` of a call that must succeed. */
  async result(name: string, body?: unknown): Promise<any> {
    const a = body === undefined && GETS.has(name) ? await this.get(name) : await this.post(name, body);
    if (a.status !== 200 || a.body?.ok !== true) throw new Error(`acton_${name}: ${a.status} ${JSON.stringify(a.body)}`);
    return a.body.result;
  }

  fundAccount = (address: string, amount: bigint | number) => this.post('fundAccount', `{"address":${JSON.stringify(address)},"amount":${amount}}`);
  mine = (blocks?: number) => this.post('mine', blocks === undefined ? '' : { blocks });
  nodeInfo = () => this.result('nodeInfo');
}

const GETS = new Set(['listCheckpoints', 'exportCheckpoint', 'dumpState', 'nodeInfo', 'getStartupAccounts', 'getVerifiedSource']);
