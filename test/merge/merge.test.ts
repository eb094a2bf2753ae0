import { describe, expect, it } from 'vitest';
import { checkShards, identityDifferences, mergeShards, type ShardHead } from '../../src/merge/merge.js';
import { arraySource, type ReportHead } from '../../src/model/source.js';
import { makeReport } from '../helpers/report-fixture.js';

const { results: _results, ...base } = makeReport(0);
/** Shard `index` of 2 of the fixture's run, with its run changed by `run`. */
const shard = (index: number, run: Partial<ReportHead['run']> = {}): ShardHead => ({
  path: `s${index}/report.json`,
  head: { ...base, run: { ...base.run, shard: { index, count: 2, questions: 0 }, ...run } },
});
const options = base.run.options;

describe('checkShards', () => {
  it('merges shards that differ only in options that change no answer; the merged run has the first shard\'s', () => {
    const gentle = shard(2, { options: { ...options, concurrency: 2, rps: 50, timeoutMs: 90_000, retries: 6, maxConsecutiveErrors: 100, insecure: true } });
    const shards = [shard(1), gentle];
    expect(() => checkShards(shards)).not.toThrow();
    expect(mergeShards(shards, arraySource([])).head.run.options).toEqual(options);
  });

  it('names each differing field with both values (the other shard\'s first)', () => {
    const other = shard(2, { options: { ...options, language: 'it', concurrency: 2 }, agent: 'other-agent' });
    expect(identityDifferences(other.head, shard(1).head)).toBe('agent differs ("other-agent" vs "demo-agent"); options.language differs ("it" vs "en")');
    expect(() => checkShards([shard(1), other])).toThrow(
      's2/report.json does not belong with s1/report.json: agent differs ("other-agent" vs "demo-agent"); options.language differs ("it" vs "en")',
    );
  });

  it('says (none) for a field one shard lacks, and cuts a long value short', () => {
    const engine = { kb: { path: 'kb.jsonl', sha256: 'cd'.repeat(32) }, floorThreshold: 38, suggestionThreshold: 50 };
    const embedded = shard(2, { embeddedEngine: true, engine, options: { ...options, username: 'u'.repeat(100) } });
    expect(identityDifferences(embedded.head, shard(1).head).split('; ')).toEqual([
      'baseUrl differs ((none) vs "https://answers.example.test")',
      'engine.floorThreshold differs (38 vs (none))',
      `engine.kb.sha256 differs ("${'cd'.repeat(32)}" vs (none))`,
      'engine.suggestionThreshold differs (50 vs (none))',
      `options.username differs ("${'u'.repeat(78)}… vs (none))`,
    ]);
  });

  it('counts a shard of another count as another run', () => {
    const three = shard(2, { shard: { index: 2, count: 3, questions: 0 } });
    expect(() => checkShards([shard(1), three])).toThrow('s2/report.json does not belong with s1/report.json: shard.count differs (3 vs 2)');
  });
});
