import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { md } from '../../src/report/markdown.js';
import { renderString } from '../../src/report/formats.js';
import { fromReport } from '../../src/model/source.js';
import type { QuestionResult, Report, ReportAnswer } from '../../src/model/report.js';
import { appendStepSummary } from '../../src/report/step-summary.js';
import { writeReports } from '../../src/report/write.js';
import { summarize } from '../../src/score/summary.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const answer = (seq: number, label: string, score: number, extra: Partial<ReportAnswer> = {}): ReportAnswer => ({
  answer: `answer ${label}`, sequence_number: seq, answer_score: score, tags: [], label, is_agent_answer: true, is_dummy_answer: false,
  is_dummy_floor_answer: false, is_suggestion_answer: false, is_international_question: false, is_dialog_in_progress: false, is_dialogue_answer: false, delay: 0, ...extra,
});
const result = (id: string, question: string, outcome: QuestionResult['outcome'], expected: QuestionResult['expected'], answers: ReportAnswer[], extra: Partial<QuestionResult> = {}): QuestionResult => ({
  id, line: 2, question, language: 'en', tags: ['faq'], expected, outcome, top1Index: answers.length ? 0 : null, answers, unordered: false, latencyMs: 120, attempts: 1, error: null, ...extra,
});

/** Four questions by hand: one of each of correct, wrong (with a pipe and markup), abstained, error; no metrics. */
function handMade(): Report {
  const results = [
    result('a', 'How do I pay?', 'correct', { expect: 'answer', label: ['pay'] }, [answer(1, 'pay', 0.9)]),
    result('b', 'Is <b>A|B</b> *bold*?', 'wrong', { expect: 'answer', label: ['ab'] }, [answer(2, 'refund', 0.7), answer(3, 'ab', 0.4)]),
    result('c', 'Weather?', 'abstained', { expect: 'answer', sequence: ['9'] }, [answer(999, 'floor', 0.2, { is_dummy_floor_answer: true })]),
    result('d', 'Timeout?', 'error', { expect: 'answer', label: ['x'] }, [], { latencyMs: null, attempts: 3, error: { kind: 'timeout', message: 'no answer in 30000 ms' } }),
  ];
  return {
    schemaVersion: '1.0', tool: { name: 'answer-eval', version: '0.1.0' },
    run: { startedAt: 'T0', finishedAt: 'T1', durationMs: 1000, status: 'completed', baseUrl: 'http://127.0.0.1', embeddedEngine: false, agent: 'demo',
      dataset: { path: 'faq.csv', sha256: '0', questions: 4 }, options: { concurrency: 1, timeoutMs: 30000, retries: 0, language: 'en', output: 'json', guest: true, forceSubscription: false } },
    summary: summarize(results), results,
  };
}

describe('summary.md', () => {
  it('says first why a stopped run judges nothing: how many were asked, the stop reason, how to finish it', () => {
    const partial = handMade();
    partial.run = { ...partial.run, status: 'partial', stopReason: 'circuit breaker: 5 questions in a row ended in error (the last: network: ECONNREFUSED)' };
    partial.run.dataset = { ...partial.run.dataset, questions: 117 };
    const lines = renderString('md', partial).split('\n');
    expect(lines[0]).toBe(
      '**⚠️ Stopped early: 4 of 117 questions asked: circuit breaker: 5 questions in a row ended in error (the last: network: ECONNREFUSED).** ' +
        'No gate is judged on a partial run (exit 3); `answer-eval run --resume DIR --rerun errors` finishes it, with its gates.',
    );
    expect(lines[2]).toBe('### answer-eval: faq.csv (PARTIAL run)');
  });

  it('the title names the dataset by its file name; its path, however long, is in the last line', () => {
    const report = handMade();
    report.run.dataset = { ...report.run.dataset, path: '/home/ci/builds/1234/checkout/datasets/faq.csv' };
    const lines = renderString('md', report).trimEnd().split('\n');
    expect(lines[0]).toBe('### answer-eval: faq.csv');
    expect(lines.at(-1)).toContain(' · dataset /home/ci/builds/1234/checkout/datasets/faq.csv · ');
  });

  it('escapes data for Markdown tables: pipes, HTML, emphasis', () => {
    expect(md('a|b <script> *x* [l](u) `c`')).toBe('a\\|b &lt;script&gt; \\*x\\* \\[l\\](u) \\`c\\`');
    expect(md('line\nbreak')).toBe('line break');
  });

  it('pings nobody and links no issue: @mentions, @org/team, #123 and GH-7 from data are neutralised (a zero-width space)', async () => {
    const hostile = handMade();
    hostile.results[1] = result('@octocat', 'ask @github/security about #42', 'wrong', { expect: 'answer', label: ['GH-7 fix'] }, [answer(14, '@admin', 0.7), answer(3, 'GH-7 fix', 0.4)], {
      reason: 'expected label "GH-7 fix"; top-1 is #14 "@admin" (score 0.7); the expected answer #3 is at rank 2',
    });
    hostile.summary = summarize(hostile.results);
    const out = tempDir();
    await writeReports(fromReport(hostile), out, ['md']);
    const text = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(text).toContain('@\u200boctocat');
    expect(text).toContain('@\u200bgithub/security');
    expect(text).toContain('\\#\u200b42');
    expect(text).toContain('#\u200b14');
    expect(text).toContain('GH-\u200b7');
    // what GitHub would turn into a mention or a reference
    expect(text.match(/@[A-Za-z0-9]/g)).toBeNull();
    expect(text.match(/(?:^|[^&])#\d|\bGH-\d/g)).toBeNull();
  });

  it('renders a small report without metrics', () => {
    expect(renderString('md', handMade())).toMatchInlineSnapshot(`
      "### answer-eval: faq.csv

      | in-scope accuracy | out-of-scope recall | error rate | MRR |
      |---:|---:|---:|---:|
      | **33.3%** (95% CI 6.1–79.2%) | **n/a** | **25.0%** (95% CI 4.6–69.9%) | **0.000** (95% CI 0.000–0.000) |

      Top-1 accuracy **33.3%** (95% CI 6.1%–79.2%, n=3) · answerable accuracy **33.3%** (95% CI 6.1%–79.2%, n=3)

      | correct | wrong | abstained | fallback ok | fallback missed | unlabeled | error | total |
      |---:|---:|---:|---:|---:|---:|---:|---:|
      | 1 | 1 | 1 | 0 | 0 | 0 | 1 | 4 |

      Latency p50 120 ms · p90 120 ms · p99 120 ms · rates: floor 25.0%, dummy 0.0%, empty 0.0%, error 25.0%

      **Worst slices** (top-1 accuracy)

      | by | worst first |
      |---|---|
      | category | (category unknown) 33% (2 failing of 4) |
      | language | en 33% (2 failing of 4) |
      | tag | faq 33% (2 failing of 4) |

      **Top confusions** (in scope)

      | expected | got instead | count | e.g. |
      |---|---|---:|---|
      | ab | refund | 1 | b |

      <details><summary>3 failing questions (first 10)</summary>

      | id | outcome | question | expected | got | why |
      |---|---|---|---|---|---|
      | b | wrong | Is &lt;b&gt;A\\|B&lt;/b&gt; \\*bold\\*? | label ab | refund (seq 2, score 0.7) |  |
      | c | abstained | Weather? | sequence 9 | floor (seq 999, score 0.2, floor) |  |
      | d | error | Timeout? | label x | error: no answer in 30000 ms |  |

      </details>

      <sub>answer-eval 0.1.0 · dataset faq.csv · http://127.0.0.1 · agent demo · T0</sub>
      "
    `);
  });

  it('shows intervals, the recommended threshold and worst slices when the report has metrics', () => {
    const text = renderString('md', makeReport(80));
    expect(text).toMatch(/Top-1 accuracy \*\*\d+\.\d%\*\* \(95% CI \d+\.\d%–\d+\.\d%, n=\d+\)/);
    expect(text).toContain('Recommended floor threshold **');
    expect(text).not.toContain('<script');
    expect(text).not.toContain('<img');
  });

  it('is appended to $GITHUB_STEP_SUMMARY when it is set', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'step.md', '# earlier step\n');
    expect(await appendStepSummary(fromReport(handMade()), {})).toBeUndefined();
    expect(await appendStepSummary(fromReport(handMade()), { GITHUB_STEP_SUMMARY: file })).toBe(file);
    const text = readFileSync(join(dir, 'step.md'), 'utf8');
    expect(text.startsWith('# earlier step\n### answer-eval: faq.csv')).toBe(true);
  });
});
