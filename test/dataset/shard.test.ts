import { describe, expect, it } from 'vitest';
import { inShard, parseShard } from '../../src/dataset/shard.js';

describe('shards', () => {
  it('parses i/n and refuses the rest', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2']) expect(() => parseShard(bad)).toThrow(/expected i\/n/);
  });

  it('--shard auto reads the environment: ANSWER_EVAL_SHARD, GitLab parallel:, a Kubernetes Indexed Job', () => {
    expect(parseShard('auto', { ANSWER_EVAL_SHARD: '3/5' })).toEqual({ index: 3, count: 5 });
    expect(parseShard('auto', { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4' })).toEqual({ index: 2, count: 4 });
    expect(parseShard('auto', { JOB_COMPLETION_INDEX: '0', JOB_COMPLETIONS: '4' })).toEqual({ index: 1, count: 4 });
    expect(parseShard('auto', { JOB_COMPLETION_INDEX: '3', JOB_COMPLETIONS: '4' })).toEqual({ index: 4, count: 4 });
    // the explicit variable wins over what the platform sets
    expect(parseShard('auto', { ANSWER_EVAL_SHARD: '1/2', CI_NODE_INDEX: '2', CI_NODE_TOTAL: '2' })).toEqual({ index: 1, count: 2 });
  });

  it('--shard auto says what is missing or wrong, naming the variables', () => {
    expect(() => parseShard('auto', {})).toThrow(/found no shard in the environment: set ANSWER_EVAL_SHARD=i\/n, or run under GitLab/);
    expect(() => parseShard('auto', { JOB_COMPLETION_INDEX: '1' })).toThrow(/JOB_COMPLETION_INDEX is set \(a Kubernetes Indexed Job\) but JOB_COMPLETIONS is not/);
    expect(() => parseShard('auto', { JOB_COMPLETION_INDEX: '4', JOB_COMPLETIONS: '4' })).toThrow(/JOB_COMPLETION_INDEX=4 and JOB_COMPLETIONS=4 are not a shard \(a Kubernetes Indexed Job: JOB_COMPLETION_INDEX from 0 to JOB_COMPLETIONS - 1\)/);
    expect(() => parseShard('auto', { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '3' })).toThrow(/CI_NODE_INDEX=0 and CI_NODE_TOTAL=3 are not a shard/);
    expect(() => parseShard('auto', { ANSWER_EVAL_SHARD: '5/4' })).toThrow(/ANSWER_EVAL_SHARD="5\/4" is not a shard/);
  });

  it('puts every id in exactly one shard, roughly evenly', () => {
    const ids = Array.from({ length: 4000 }, (_, i) => `q-${i}`);
    const sizes = [1, 2, 3, 4].map((index) => ids.filter((id) => inShard(id, { index, count: 4 })).length);
    expect(sizes.reduce((a, b) => a + b)).toBe(4000);
    for (const size of sizes) expect(size).toBeGreaterThan(850);
  });

  it('is stable: a known id always lands in the same shard, whatever else the dataset holds', () => {
    // computed independently: node -e "crypto.createHash('sha256').update(id).digest().readUInt32BE(0) % 4 + 1"
    const shardOf = (id: string) => [1, 2, 3, 4].find((index) => inShard(id, { index, count: 4 }));
    expect(['q-1', 'q-2', 'q-3', 'faq-17'].map(shardOf)).toEqual([3, 2, 3, 2]);
  });
});
