import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/model/outcome.js';
import { gatesNotJudged, newerLeftOut, trendGates } from '../../src/trend/gates.js';
import { QuestionHistory, type Observation } from '../../src/trend/history.js';
import { identityHash, runChanges, serviceIdentity } from '../../src/trend/identity.js';
import { makeReport } from '../helpers/report-fixture.js';

const obs = (id: string, outcome: Outcome, over: Partial<Observation> = {}): Observation => ({
  id,
  question: `question ${id}`,
  language: 'en',
  expected: { expect: 'answer', label: ['a'] },
  outcome,
  ...over,
});

/** Feeds runs of [service, outcomes by id] and returns the history. */
function feed(runs: [service: string, observations: Observation[]][]): QuestionHistory {
  const history = new QuestionHistory();
  for (const [service, list] of runs) {
    const run = history.startRun(service);
    for (const o of list) history.observe(run, o);
  }
  return history;
}

describe('QuestionHistory', () => {
  it('counts flips only between runs of one service, and keeps the start of the current failing streak', () => {
    const h = feed([
      ['A', [obs('q', 'correct')]],
      ['A', [obs('q', 'wrong')]], // flip 1, streak from run 1
      ['B', [obs('q', 'abstained')]], // service changed: no flip, the streak goes on
      ['B', [obs('q', 'correct')]], // flip 2
      ['A', [obs('q', 'wrong')]], // service changed: no flip; a new streak from run 4
    ]);
    expect(h.flips(0)).toBe(2);
    expect(h.failingSince(0)).toBe(4);
    expect(h.everPassed(0)).toBe(true);
  });

  it('does not count a flip when the question text or its expectations changed', () => {
    const h = feed([
      ['A', [obs('q', 'correct'), obs('r', 'correct')]],
      ['A', [obs('q', 'wrong', { expected: { expect: 'answer', label: ['b'] } }), obs('r', 'wrong', { question: 'reworded' })]],
      ['A', [obs('q', 'correct'), obs('r', 'correct', { question: 'reworded' })]],
    ]);
    expect(h.flips(0)).toBe(0); // changed, then changed back: neither counts
    expect(h.flips(1)).toBe(1); // changed, then the same: the second counts
  });

  it('skips errors and unlabeled results: they neither start, break nor flip a streak', () => {
    const h = feed([
      ['A', [obs('q', 'wrong'), obs('u', 'unlabeled')]],
      ['A', [obs('q', 'error'), obs('u', 'unlabeled')]],
      ['A', [obs('q', 'wrong')]],
      ['A', [obs('q', 'error')]],
    ]);
    expect(h.failingSince(0)).toBe(0);
    expect(h.everPassed(0)).toBe(false);
    expect(h.flips(0)).toBe(0);
    expect(h.failingSince(1)).toBe(-1);
    expect(h.size).toBe(2);
  });

  it('tells what a question was when last judged before the run', () => {
    const history = new QuestionHistory();
    const runs = ['A', 'A', 'A'].map((s) => history.startRun(s));
    expect(history.observe(runs[0]!, obs('q', 'fallback_ok')).before).toBeNull();
    expect(history.observe(runs[1]!, obs('q', 'error')).before).toBe(true);
    expect(history.observe(runs[2]!, obs('q', 'fallback_missed')).before).toBe(true);
  });
});

describe('service identity', () => {
  const head = makeReport(0);

  it('leaves out when and how fast a run went, and the embedded engine\'s ephemeral URL', () => {
    const later = { ...head, run: { ...head.run, startedAt: '2030-01-01T00:00:00.000Z', durationMs: 1, options: { ...head.run.options, concurrency: 64, retries: 0, rps: 5 } } };
    expect(identityHash(serviceIdentity(later))).toBe(identityHash(serviceIdentity(head)));
    const a = { ...head, run: { ...head.run, embeddedEngine: true, baseUrl: 'http://127.0.0.1:40001' } };
    const b = { ...head, run: { ...head.run, embeddedEngine: true, baseUrl: 'http://127.0.0.1:40002' } };
    expect(identityHash(serviceIdentity(a))).toBe(identityHash(serviceIdentity(b)));
  });

  it('names every change of what answered, with both values, and of the dataset', () => {
    const before = { dataset: head.run.dataset, identity: serviceIdentity(head) };
    // a field this version does not know (a later version's record of the engine) is identity too
    const engine = { kb: { path: 'kb.jsonl', sha256: 'cd'.repeat(32) }, floorThreshold: 38, suggestionThreshold: 50 };
    const next = { ...head, tool: { ...head.tool, version: '0.2.0' }, run: { ...head.run, agent: 'other', dataset: { ...head.run.dataset, sha256: 'ef'.repeat(32) }, engine } };
    expect(runChanges(before, { dataset: next.run.dataset, identity: serviceIdentity(next) })).toEqual([
      { kind: 'dataset', what: `dataset sha256 ${'ab'.repeat(6)}… → ${'ef'.repeat(6)}…` },
      { kind: 'service', what: 'agent "demo-agent" → "other"' },
      { kind: 'service', what: 'engine.floorThreshold (none) → 38' },
      { kind: 'service', what: `engine.kb.sha256 (none) → "${'cd'.repeat(32)}"` },
      { kind: 'service', what: 'engine.suggestionThreshold (none) → 50' },
      { kind: 'service', what: 'tool.version "0.1.0" → "0.2.0"' },
    ]);
  });
});

describe('trend gates', () => {
  const failing = ['a', 'b', 'c'].map((id, k) => ({ id, question: id, outcome: 'wrong' as const, failingSince: k, everPassed: true, newFailure: k > 0 }));
  const flaky = [{ id: 'f', question: 'f', flips: 3, correctNow: true }];

  it('judges --max-new-failures and --max-flaky, naming the questions over the limit', () => {
    expect(trendGates(failing, flaky, { maxNewFailures: 1, maxFlaky: 1 })).toEqual([
      { gate: '--max-new-failures', metric: 'newFailures', threshold: 1, value: 2, passed: false, message: '2 new failures > --max-new-failures 1 (over by 1): b, c' },
      { gate: '--max-flaky', metric: 'flaky', threshold: 1, value: 1, passed: true, message: '1 flaky question <= --max-flaky 1' },
    ]);
    expect(trendGates(failing, flaky, {})).toEqual([]);
  });
});

describe('a run left out that may be newer than the latest one read', () => {
  const latest = { path: 'n2/report.json', startedAt: '2026-01-02T02:00:00.000Z' };
  const read = 'the latest run read (n2/report.json, started 2026-01-02T02:00:00.000Z)';

  it('started after it, or last written after it started, or unknown: named, with why', () => {
    expect(newerLeftOut(latest, [{ path: 'n3/report.json', when: { at: '2026-01-03T02:00:00.000Z', what: 'started' } }])).toBe(
      `n3/report.json, which could not be read, started at 2026-01-03T02:00:00.000Z, after ${read}`,
    );
    expect(newerLeftOut(latest, [{ path: 'x/report.json', when: { at: '2026-01-02T02:30:00.000Z', what: 'last written' } }])).toBe(
      `x/report.json, which could not be read, was last written at 2026-01-02T02:30:00.000Z (when it started cannot be read), after ${read}`,
    );
    expect(newerLeftOut(latest, [{ path: 'y' }])).toBe(`y, which could not be read, may be newer than ${read}: when it ran cannot be told`);
    expect(newerLeftOut(latest, [{ path: 'z', when: { at: 'garbled', what: 'started' } }])).toBe(`z, which could not be read, may be newer than ${read}: when it ran cannot be told`);
  });

  it('older ones (an old broken night), at the same time, and what-ifs leave the gates to be judged', () => {
    expect(
      newerLeftOut(latest, [
        { path: 'n1', when: { at: '2026-01-01T02:00:00.000Z', what: 'started' } },
        { path: 'n0', when: { at: '2025-12-31T02:00:00.000Z', what: 'last written' } },
        { path: 'same', when: { at: latest.startedAt, what: 'started' } },
        { path: 'rescored', when: { at: '2026-01-05T00:00:00.000Z', what: 'started' }, whatIf: true },
      ]),
    ).toBeUndefined();
    expect(newerLeftOut(latest, [])).toBeUndefined();
  });

  it('each gate set fails as not judged, saying why', () => {
    expect(gatesNotJudged({ maxNewFailures: 0, maxFlaky: 5 }, 'why')).toEqual([
      { gate: '--max-new-failures', metric: 'judged', threshold: 1, value: 0, passed: false, message: '--max-new-failures cannot be judged: why' },
      { gate: '--max-flaky', metric: 'judged', threshold: 1, value: 0, passed: false, message: '--max-flaky cannot be judged: why' },
    ]);
    expect(gatesNotJudged({}, 'why')).toEqual([]);
  });
});
