import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consistencyGate } from '../../src/gate/consistency.js';
import { renderString } from '../../src/report/formats.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-repeat-');
let server: SpecServer;
/** How many times each question text was asked so far. */
const asked = new Map<string, number>();

// steady questions always get answer 1; "shaky" gets 1, 2, 1, ...; "late" gets 2 first, then 1; "flaky-error" fails its second asking
beforeAll(async () => {
  server = await startSpecServer((req) => {
    const text = (req.body['question'] as { text: string }).text;
    const n = (asked.get(text) ?? 0) + 1;
    asked.set(text, n);
    if (text === 'shaky') return { body: { answers: [item(n % 2 === 1 ? 1 : 2, 80)] } };
    if (text === 'late') return { body: { answers: [item(n === 1 ? 2 : 1, 80)] } };
    if (text === 'flaky-error' && n === 2) return { body: '{"answers": [' };
    return { body: { answers: [item(1, 80), item(3, 40)] } };
  });
});
afterAll(() => server.close());

const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\ns1,steady one,1\ns2,steady two,1\nsh,shaky,1\nla,late,1\nfe,flaky-error,1\n');
const base = { dataset, agent: 'a', agentCode: 'c', retries: 0, concurrency: 1 } as const;

describe('run --repeat', () => {
  it('asks every question N times, the dataset streamed again for each asking, and scores the first answer', async () => {
    asked.clear();
    server.received.length = 0;
    const out = join(dir, 'three');
    const { report } = await runEvaluation({ ...base, baseUrl: server.url, repeat: 3, journalDir: out });
    // spread over the run: all questions once, then all again, then again
    const order = server.received.map((r) => (r.body['question'] as { text: string }).text);
    const once = ['steady one', 'steady two', 'shaky', 'late', 'flaky-error'];
    expect(order).toEqual([...once, ...once, ...once]);

    expect(report.results.map((r) => r.id)).toEqual(['s1', 's2', 'sh', 'la', 'fe']);
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('la')!.outcome).toBe('wrong'); // its first answer, though the next two were right
    expect(byId.get('sh')!.repeats).toEqual({
      consistent: false,
      others: [{ sequence: 2, label: 'label-2', score: 80, error: false }, { sequence: 1, label: 'label-1', score: 80, error: false }],
    });
    expect(byId.get('s1')!.repeats!.consistent).toBe(true);
    // an asking that ended in error is left out of the comparison
    expect(byId.get('fe')!.repeats).toEqual({ consistent: true, others: [{ sequence: null, label: null, score: null, error: true }, { sequence: 1, label: 'label-1', score: 80, error: false }] });
    expect(report.run).toMatchObject({ status: 'completed', repeat: { times: 3, scored: 'first' } });
    expect(report.metrics!.consistency).toMatchObject({ repeat: 3, interval: { successes: 3, n: 5, value: 0.6 }, inconsistent: [{ id: 'sh', top1: [1, 2, 1] }, { id: 'la', top1: [2, 1, 1] }] });

    // every answer is journaled: the further askings with their repeat index
    const lines = readFileSync(join(out, 'journal.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { id?: string; repeat?: number; request?: { repeat?: number } });
    expect(lines[0]!.request!.repeat).toBe(3);
    expect(lines.slice(1).map((l) => l.repeat ?? 0)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2]);

    const md = renderString('md', report);
    expect(md).toContain('Consistency over 3 askings: **60.0%**');
    expect(md).toContain('scored on its first answer');
    expect(md).toContain("| sh | 1 → 2 → 1 |");
    const html = renderString('html', report);
    expect(html).toContain('Consistency · 3 askings');
    expect(html).toContain('<table class="slices" id="inconsistent">');
    // each id is a link the page's script handles: it filters the question table to that question
    expect(html).toContain('<a href="#questions" class="goto example" data-id="sh">sh</a>');
  });

  it('resumes a repeat run: asks only the askings the journal lacks, and reports as one uninterrupted run would', async () => {
    asked.clear();
    const out = join(dir, 'resumed');
    const stop = new AbortController();
    const first = await runEvaluation({
      ...base,
      baseUrl: server.url,
      repeat: 3,
      journalDir: out,
      signal: stop.signal,
      graceMs: 1000,
      onProgress: (done) => {
        if (done === 7) stop.abort();
      },
    });
    expect(first.stoppedBy).toBeDefined();
    expect(first.report.run.status).toBe('partial');
    // replies in hand when the stop came are journaled too: at least the 7 askings seen
    const journaled = readFileSync(join(out, 'journal.jsonl'), 'utf8').trim().split('\n').length - 1;
    expect(journaled).toBeGreaterThanOrEqual(7);
    const firstPass = readFileSync(join(out, 'journal.jsonl'), 'utf8').trim().split('\n').slice(1).filter((l) => !l.includes('"repeat":')).length;
    const before = server.received.length;
    const again = await runEvaluation({ agentCode: 'c', journalDir: out, resume: true, concurrency: 1 });
    expect(server.received.length - before).toBe(15 - journaled);
    expect(again.report.run).toMatchObject({ status: 'completed', repeat: { times: 3, scored: 'first' }, resumed: { fromJournal: firstPass, asked: 15 - journaled } });
    asked.clear();
    const uninterrupted = (await runEvaluation({ ...base, baseUrl: server.url, repeat: 3 })).report;
    expect(again.report.results.map((r) => [r.id, r.outcome, r.repeats])).toEqual(uninterrupted.results.map((r) => [r.id, r.outcome, r.repeats]));
    expect(again.report.metrics!.consistency).toEqual(uninterrupted.metrics!.consistency);
  });

  it('refuses to resume with another --repeat, and a repeat that is no whole number', async () => {
    const out = join(dir, 'once');
    await runEvaluation({ ...base, baseUrl: server.url, journalDir: out });
    await expect(runEvaluation({ agentCode: 'c', journalDir: out, resume: true, repeat: 2 })).rejects.toThrow(/--repeat differs \(journal not given, now 2\)/);
    await expect(runEvaluation({ ...base, baseUrl: server.url, repeat: 1.5 })).rejects.toThrow(/--repeat must be a whole number >= 1, got 1.5/);
  });
});

describe('--min-consistency', () => {
  const c = (successes: number, n: number) => ({ repeat: 3, interval: { value: n ? successes / n : null, low: null, high: null, successes, n }, inconsistent: [] });
  it('fails below the share, and without repeats', () => {
    expect(consistencyGate(c(9, 10), 0.95)).toEqual({ gate: '--min-consistency', metric: 'consistency', threshold: 0.95, value: 0.9, passed: false, message: 'consistency 0.900 (9/10) < --min-consistency 0.95 (short by 0.050)' });
    expect(consistencyGate(c(10, 10), 0.95).passed).toBe(true);
    expect(consistencyGate(undefined, 0.5)).toMatchObject({ passed: false, message: expect.stringContaining('run with --repeat N') });
  });
});
