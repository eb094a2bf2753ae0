import { describe, expect, it } from 'vitest';
import { inShard, parseShard } from '../../src/dataset/shard.js';

describe('shards', () => {
  it('parses i/n and refuses the rest', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2']) expect(() => parseShard(bad)).toThrow(/expected i\/n/);
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
