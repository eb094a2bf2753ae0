import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** A shard as written: `i/n` (the journal's header holds it so). */
export const SHARD_TEXT = /^(\d+)\/(\d+)$/;

/** The shard `i/n` names, when it is one (1 <= i <= n); undefined otherwise. */
function shardOf(text: string): Shard | undefined {
  const m = SHARD_TEXT.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  return m && count >= 1 && index >= 1 && index <= count ? { index, count } : undefined;
}

/** Parses `--shard 2/4`, or `--shard auto` (see shardFromEnv). */
export function parseShard(value: string, env: NodeJS.ProcessEnv = process.env): Shard {
  if (value.trim() === 'auto') return shardFromEnv(env);
  const shard = shardOf(value);
  if (!shard) throw new ConfigError(`--shard "${value}" is not a shard (expected i/n with 1 <= i <= n, e.g. 2/4, or auto)`);
  return shard;
}

/** Where `--shard auto` finds its shard, first match wins: [what, index variable, count variable, index base]. */
const SHARD_SOURCES = [
  ['GitLab parallel:', 'CI_NODE_INDEX', 'CI_NODE_TOTAL', 1],
  ['a Kubernetes Indexed Job', 'JOB_COMPLETION_INDEX', 'JOB_COMPLETIONS', 0],
] as const;

/**
 * The shard of `--shard auto`, from the environment of the engine running it: `ANSWER_EVAL_SHARD=i/n` (any CI,
 * e.g. a GitHub Actions matrix), GitLab's `parallel:` (CI_NODE_INDEX 1..n, CI_NODE_TOTAL), or a Kubernetes Indexed
 * Job (JOB_COMPLETION_INDEX 0..n-1, set by Kubernetes, and JOB_COMPLETIONS = the Job's completions, set in its
 * manifest: Kubernetes does not pass the count).
 */
export function shardFromEnv(env: NodeJS.ProcessEnv): Shard {
  const explicit = env['ANSWER_EVAL_SHARD'];
  if (explicit !== undefined && explicit.trim() !== '') {
    if (explicit.trim() === 'auto') throw new ConfigError('ANSWER_EVAL_SHARD=auto: give the shard itself, e.g. ANSWER_EVAL_SHARD=2/4');
    const shard = shardOf(explicit);
    if (!shard) {
      throw new ConfigError(`ANSWER_EVAL_SHARD="${explicit}" is not a shard (expected i/n with 1 <= i <= n, e.g. 2/4)`);
    }
    return shard;
  }
  for (const [what, indexVar, countVar, base] of SHARD_SOURCES) {
    const rawIndex = env[indexVar];
    if (rawIndex === undefined) continue;
    const rawCount = env[countVar];
    if (rawCount === undefined) throw new ConfigError(`--shard auto: ${indexVar} is set (${what}) but ${countVar} is not: set it to the number of shards`);
    const index = Number(rawIndex) + 1 - base;
    const count = Number(rawCount);
    if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 1 || index > count) {
      throw new ConfigError(`--shard auto: ${indexVar}=${rawIndex} and ${countVar}=${rawCount} are not a shard (${what}: ${indexVar} from ${base} to ${countVar}${base === 0 ? ' - 1' : ''})`);
    }
    return { index, count };
  }
  throw new ConfigError(
    '--shard auto found no shard in the environment: set ANSWER_EVAL_SHARD=i/n, or run under GitLab parallel: (CI_NODE_INDEX, CI_NODE_TOTAL) ' +
      'or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, and JOB_COMPLETIONS in the manifest)',
  );
}

/**
 * Whether a question belongs to a shard: the first 4 bytes of sha256(id), big-endian, modulo the shard
 * count. It depends on the id alone, so adding questions never moves the others to another shard.
 */
export function inShard(id: string, shard: Shard): boolean {
  if (shard.count === 1) return true;
  return createHash('sha256').update(id).digest().readUInt32BE(0) % shard.count === shard.index - 1;
}
