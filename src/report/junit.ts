import { describeExpected, describeGot, truncate } from './describe.js';
import type { QuestionResult } from '../model/report.js';
import { failingCount, OUTCOME_CLASSES, OUTCOMES, type Outcome } from '../model/outcome.js';
import type { ScoredData } from '../model/source.js';
import { escapeXml as x, xmlAttr as a } from './xml.js';
import { matchedAnswer, top1 } from '../score/result.js';

const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

/** Every question that could pass or fail is a testcase: unlabeled ones have nothing to pass. */
const isTestcase = (o: Outcome): boolean => OUTCOME_CLASSES[o].judged || OUTCOME_CLASSES[o].error;

/** classname: the first tag, else the expected-or-top-1 category, so CI groups failures by topic. */
const classname = (r: QuestionResult): string => `answer-eval.${r.tags[0] ?? top1(r)?.category ?? 'questions'}`;

function testcase(r: QuestionResult): string {
  const head = `    <testcase classname="${a(classname(r))}" name="${a(`${r.id}: ${truncate(r.question, 120)}`)}" time="${seconds(r.latencyMs)}"`;
  const seen = matchedAnswer(r);
  const detail = [
    `question: ${r.question}`,
    `expected: ${describeExpected(r.expected)}`,
    `got: ${describeGot(r)}`,
    ...(r.reason ? [`why: ${r.reason}`] : []),
    `answer: ${top1(r)?.answer ?? ''}`,
    ...(seen && r.outcome !== 'correct' ? [`expected answer (seen at rank ${r.rank}): ${seen.answer}`] : []),
  ].join('\n');
  const c = OUTCOME_CLASSES[r.outcome];
  if (c.error) {
    const type = r.error?.kind ?? 'error';
    return `${head}>\n      <error type="${a(type)}" message="${a(r.error?.message ?? 'error')}">${x(detail)}</error>\n    </testcase>`;
  }
  if (c.failing) {
    const message = `${r.outcome}: ${r.reason ?? `expected ${describeExpected(r.expected)}, got ${describeGot(r)}`}`;
    return `${head}>\n      <failure type="${r.outcome}" message="${a(message)}">${x(detail)}</failure>\n    </testcase>`;
  }
  return `${head}/>`;
}

/**
 * junit.xml: one testcase per labeled question; wrong / abstained / fallback_missed are failures,
 * transport and protocol errors are errors. Unlabeled questions are omitted (nothing to pass or fail);
 * their count is a property of the suite. The suite totals come from the summary, so one pass writes it.
 */
export function* renderJunit({ head: report, results }: ScoredData): Generator<string> {
  const o = report.summary.outcomes;
  const time = seconds(report.run.durationMs);
  const tests = OUTCOMES.reduce((n, k) => n + (isTestcase(k) ? o[k] : 0), 0);
  const attrs = `tests="${tests}" failures="${failingCount(o)}" errors="${o.error}" skipped="0" time="${time}"`;
  const props = [
    ['baseUrl', report.run.baseUrl], ['agent', report.run.agent], ['dataset', report.run.dataset.path],
    ['status', report.run.status], ['unlabeled', String(o.unlabeled)], ['tool', `${report.tool.name} ${report.tool.version}`],
  ].map(([k, v]) => `      <property name="${a(k)}" value="${a(v)}"/>`);
  yield [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="answer-eval" ${attrs}>`,
    `  <testsuite name="${a(report.run.dataset.path)}" ${attrs} timestamp="${a(report.run.startedAt.replace(/\.\d+Z$/, ''))}" hostname="answer-eval">`,
    '    <properties>',
    ...props,
    '    </properties>',
  ].join('\n');
  for (const r of results) if (isTestcase(r.outcome)) yield `\n${testcase(r)}`;
  yield '\n  </testsuite>\n</testsuites>\n';
}
