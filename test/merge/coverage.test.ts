import { describe, expect, it } from 'vitest';
import { checkShards, mergeShards, type ShardHead } from '../../src/merge/merge.js';
import type { CoverageRef } from '../../src/model/coverage.js';
import { arraySource } from '../../src/model/source.js';
import { CoverageCounter } from '../../src/score/coverage.js';
import { ans, res } from '../helpers/results.js';
import { makeReport } from '../helpers/report-fixture.js';

// Shards of a remote service carry the coverage of the --kb given beside it: every shard the same knowledge base, or
// none, and the merged report covers the union of their questions.
const { results: _results, ...base } = makeReport(0);
const KB: CoverageRef[] = [1, 2, 3].map((n) => ({ sequence: n, label: `label-${n}`, title: `Entry ${n}` }));

/** Shard `index` of 2 whose one question expects entry `expects`, with the coverage of `kb` (none when null). */
function shard(index: number, expects: number, kb: CoverageRef[] | null = KB): ShardHead {
  const counter = kb && new CoverageCounter({ knowledgeBase: 'kb.jsonl', entries: kb });
  counter?.add(res({ outcome: 'correct', expected: { expect: 'answer', sequence: [String(expects)] }, answers: [ans(expects, 80)] }));
  const run = { ...base.run, shard: { index, count: 2, questions: 1 } };
  return { path: `s${index}/report.json`, head: { ...base, run, ...(counter ? { coverage: counter.result() } : {}) } };
}

describe('merge: coverage of the knowledge base', () => {
  it('adds the shards\' counts up: an entry tested by any shard is tested', () => {
    const merged = mergeShards([shard(1, 1), shard(2, 3)], arraySource([])).head.coverage!;
    expect({ tested: merged.tested, share: merged.share }).toEqual({ tested: 2, share: 2 / 3 });
    expect(merged.untested.map((e) => e.sequence)).toEqual([2]);
    expect(merged.byEntry.map((e) => [e.sequence, e.questions, e.top1])).toEqual([[1, 1, 1], [2, 0, 0], [3, 1, 1]]);
  });

  it('refuses a shard without the knowledge base, or with another one, naming it', () => {
    expect(() => checkShards([shard(1, 1), shard(2, 3, null)])).toThrow(/^s2\/report\.json does not belong with s1\/report\.json: coverage\.knowledgeBase differs \(\(none\) vs "3 entries, [0-9a-f]+"\)$/);
    const other = KB.map((e) => (e.sequence === 2 ? { ...e, label: 'renamed' } : e));
    expect(() => checkShards([shard(1, 1), shard(2, 3, other)])).toThrow(/coverage\.knowledgeBase differs \("3 entries, [0-9a-f]+" vs "3 entries, [0-9a-f]+"\)$/);
  });
});
