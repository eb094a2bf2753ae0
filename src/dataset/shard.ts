import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `--shard 2/4`. */
export function parseShard(value: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ConfigError(`--shard "${value}" is not a shard (expected i/n with 1 <= i <= n, e.g. 2/4)`);
  }
  return { index, count };
}

/**
 * Whether a question belongs to a shard: the first 4 bytes of sha256(id), big-endian, modulo the shard
 * count. It depends on the id alone, so adding questions never moves the others to another shard.
 */
export function inShard(id: string, shard: Shard): boolean {
  if (shard.count === 1) return true;
  return createHash('sha256').update(id).digest().readUInt32BE(0) % shard.count === shard.index - 1;
}
