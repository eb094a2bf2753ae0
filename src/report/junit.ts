import { describeExpected, describeGot, truncate } from './describe.js';
import type { QuestionResult } from '../model/report.js';
import { failingCount, OUTCOME_CLASSES, OUTCOMES, type Outcome } from '../model/outcome.js';
import type { ScoredData } from '../model/source.js';
import { escapeXml as x, xmlAttr as a } from './xml.js';
import { matchedAnswer, top1 } from '../score/result.js';
import type { Verdict } from '../model/verdict.js';

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

/** The gates as their own testsuite: one testcase per gate (classname `answer-eval.gate`), a failure when it failed. */
function gateSuite(v: Verdict, timestamp: string): string {
  const failed = v.results.filter((r) => !r.passed).length;
  const cases = v.results.map((r) => {
    const head = `    <testcase classname="answer-eval.gate" name="${a(r.gate)}" time="0.000"`;
    if (r.passed) return `${head}>\n      <system-out>${x(r.message)}</system-out>\n    </testcase>`;
    const detail = `${r.metric} = ${r.value ?? 'n/a'}, threshold ${r.gate} ${r.threshold}\n${r.message}`;
    return `${head}>\n      <failure type="gate" message="${a(r.message)}">${x(detail)}</failure>\n    </testcase>`;
  });
  return [
    `\n  <testsuite name="answer-eval gates" tests="${v.results.length}" failures="${failed}" errors="0" skipped="0" time="0.000" timestamp="${a(timestamp)}" hostname="answer-eval">`,
    ...cases,
    '  </testsuite>',
  ].join('\n');
}

/**
 * junit.xml: the gates first (a testsuite of their own, when any was set), then one testcase per labeled question;
 * wrong / abstained / fallback_missed are failures, transport and protocol errors are errors. Unlabeled questions are omitted (nothing to pass or fail);
 * their count is a property of the suite. The suite totals come from the summary, so one pass writes it.
 */
export function* renderJunit({ head: report, results }: ScoredData): Generator<string> {
  const o = report.summary.outcomes;
  const time = seconds(report.run.durationMs);
  const tests = OUTCOMES.reduce((n, k) => n + (isTestcase(k) ? o[k] : 0), 0);
  const attrs = `tests="${tests}" failures="${failingCount(o)}" errors="${o.error}" skipped="0" time="${time}"`;
  const gates = report.gates;
  const gateFailures = gates ? gates.results.filter((r) => !r.passed).length : 0;
  const totals = gates
    ? `tests="${tests + gates.results.length}" failures="${failingCount(o) + gateFailures}" errors="${o.error}" skipped="0" time="${time}"`
    : attrs;
  const timestamp = report.run.startedAt.replace(/\.\d+Z$/, '');
  const props = [
    ['baseUrl', report.run.baseUrl], ['agent', report.run.agent], ['dataset', report.run.dataset.path],
    ['status', report.run.status], ['unlabeled', String(o.unlabeled)], ['tool', `${report.tool.name} ${report.tool.version}`],
  ].map(([k, v]) => `      <property name="${a(k)}" value="${a(v)}"/>`);
  yield [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="answer-eval" ${totals}>${gates ? gateSuite(gates, timestamp) : ''}`,
    `  <testsuite name="${a(report.run.dataset.path)}" ${attrs} timestamp="${a(timestamp)}" hostname="answer-eval">`,
    '    <properties>',
    ...props,
    '    </properties>',
  ].join('\n');
  for (const r of results) if (isTestcase(r.outcome)) yield `\n${testcase(r)}`;
  yield '\n  </testsuite>\n</testsuites>\n';
}
