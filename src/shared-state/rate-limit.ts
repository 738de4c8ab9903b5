/**
 * The token buckets of src/pipeline/auth.ts kept in Redis, so every replica takes from the same bucket.
 *
 * One Lua script per request does refill-and-take atomically in one round trip, on Redis's own clock
 * (`TIME`), so replicas with skewed clocks still agree. A bucket is a hash {tokens, at} that expires when
 * it would be full again: a missing bucket and a full one are the same thing, so Redis holds only
 * clients seen within the last second or so. When Redis cannot answer, the in-process limiter decides.
 */
import type { Redis } from 'ioredis';
import { KEY_PREFIX, type SharedState } from './redis.js';

/** Takes one token from bucket `id` refilled at `rate`/s (burst `rate`): 0 when allowed, else seconds until a token is back. */
export interface Limiter {
  take(id: string, rate: number): number | Promise<number>;
}

// KEYS[1] bucket; ARGV[1] rate. TIME is allowed before writes since Redis 5 (effects replication).
const TAKE = `
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil or at == nil then
  tokens = rate
else
  tokens = math.min(rate, tokens + (now - at) / 1000000 * rate)
end
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%d', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((rate - tokens) / rate * 1000) + 1)
return string.format('%.17g', wait)
`;

type WithTake = Redis & { tgwTakeToken(key: string, rate: number): Promise<string> };

const RATE_PREFIX = `${KEY_PREFIX}rl:`;

export class RedisRateLimiter implements Limiter {
  constructor(
    private readonly shared: SharedState,
    /** decides while Redis cannot */
    private readonly local: Limiter,
  ) {
    if (!('tgwTakeToken' in shared.redis)) shared.redis.defineCommand('tgwTakeToken', { numberOfKeys: 1, lua: TAKE });
  }

  async take(id: string, rate: number): Promise<number> {
    const wait = await this.shared.attempt(
      'rate limit',
      async (redis) => Number(await (redis as WithTake).tgwTakeToken(`${RATE_PREFIX}${id}`, rate)),
      undefined,
    );
    return wait ?? this.local.take(id, rate);
  }
}
