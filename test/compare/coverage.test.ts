import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/compare/compare.js';
import { compareWarnings, questionSets } from '../../src/compare/render/format.js';
import { regressionGates } from '../../src/gate/gates.js';
import type { Report } from '../../src/model/report.js';
import { FILES, many, report, result } from './fixtures.js';

const FAST = { files: FILES, resamples: 50 };

describe('a HEAD that measured only part of what BASE measured', () => {
  const all = [...many('q', 5, 'correct'), result('q5', 'wrong')];
  const base = report(all);
  const shard = (): Report => {
    const r = report(all.slice(5));
    r.run = { ...r.run, dataset: base.run.dataset, shard: { index: 5, count: 5, questions: 1 } };
    return r;
  };
  const partial = (): Report => {
    const r = report(all.slice(0, 2));
    r.run = { ...r.run, dataset: base.run.dataset, status: 'partial', stopReason: 'interrupted (SIGINT)' };
    return r;
  };
  const lessOfTheSameDataset = (): Report => {
    const r = report(all.slice(0, 4));
    r.run = { ...r.run, dataset: base.run.dataset };
    return r;
  };

  it('records how many of BASE\'s questions HEAD did not measure, and why', () => {
    expect(compareReports(base, shard(), FAST).unmeasured).toEqual({ questions: 5, why: 'shard' });
    expect(compareReports(base, partial(), FAST).unmeasured).toEqual({ questions: 4, why: 'partial' });
    expect(compareReports(base, lessOfTheSameDataset(), FAST).unmeasured).toEqual({ questions: 2, why: 'missing' });
    expect(compareReports(base, shard(), FAST).head.shard).toEqual({ index: 5, count: 5, questions: 1 });
  });

  it('leaves questions removed from another dataset as removed: a pull request may drop questions', () => {
    const c = compareReports(base, report(all.slice(0, 4)), FAST);
    expect(c.counts.removed).toBe(2);
    expect(c.unmeasured).toBeUndefined();
    expect(c.head.shard).toBeUndefined();
    expect(regressionGates(c, { failOn: 'regression' })[0]?.passed).toBe(true);
  });

  it('makes every regression gate "cannot be judged", saying how many were not measured and what to do', () => {
    const why = {
      shard: 'HEAD (head.json) is shard 5/5 of its dataset: 5 of the questions BASE measured are in its other shards, not measured here (not removed); merge the shards first (answer-eval merge) and compare the merged report',
      partial: 'HEAD (head.json) is a PARTIAL run (it stopped after 2 of its 6 questions): 4 of the questions BASE measured were not measured (not removed); finish it (answer-eval run --resume <its directory>), then compare',
      missing: `HEAD (head.json) holds 4 of the 6 questions BASE measured with the same dataset (sha256 ${base.run.dataset.sha256.slice(0, 12)}): 2 were not measured (not removed); compare a run of the whole dataset`,
    };
    for (const [head, text] of [[shard(), why.shard], [partial(), why.partial], [lessOfTheSameDataset(), why.missing]] as const) {
      const c = compareReports(base, head, FAST);
      const gates = regressionGates(c, { failOn: 'regression', maxBroken: 3 });
      expect(gates.map((g) => [g.gate, g.passed, g.message])).toEqual([
        ['--fail-on regression', false, `--fail-on regression cannot be judged: ${text}`],
        ['--max-broken', false, `--max-broken cannot be judged: ${text}`],
      ]);
      expect(regressionGates(c, { failOn: 'significant-regression' })[0]?.passed).toBe(false);
      // without a gate, a warning in every output
      expect(compareWarnings(c)).toContain(`${text}: no regression gate can pass on this comparison`);
      expect(questionSets(c)).toContain(`${c.counts.removed} removed (${c.unmeasured?.questions} not measured by HEAD)`);
    }
  });

  it('says nothing more when HEAD is partial but measured every question BASE did', () => {
    const h = report(all);
    h.run = { ...h.run, status: 'partial' };
    const small = report(all.slice(0, 3));
    const c = compareReports(small, h, FAST);
    expect(c.unmeasured).toBeUndefined();
    expect(regressionGates(c, { failOn: 'regression' })[0]?.passed).toBe(true);
  });
});
