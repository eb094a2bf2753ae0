import { describeExpected, describeGot, truncate } from './describe.js';
import type { QuestionResult } from '../model/report.js';
import { failingCount, minusCounts, OUTCOME_CLASSES, OUTCOMES, type Outcome } from '../model/outcome.js';
import type { ScoredData } from '../model/source.js';
import { escapeXml as x, xmlAttr as a } from './xml.js';
import { matchedAnswer, top1 } from '../score/result.js';
import { byConversation } from '../score/conversation.js';
import type { Verdict } from '../model/verdict.js';
import { STANDINGS, type BaselineStandings, type Standing } from '../model/standing.js';

/** What junit.xml is written with besides the report. */
export interface JunitOptions {
  /**
   * How HEAD's failures stand against a baseline (`run --baseline`, `compare`): a failure only when this change made
   * it fail (broken, or a new or edited question); one failing in the baseline too, or quarantined, is skipped.
   */
  baseline?: BaselineStandings | undefined;
}

const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

/** Every question that could pass or fail is a testcase: unlabeled ones have nothing to pass. */
const isTestcase = (o: Outcome): boolean => OUTCOME_CLASSES[o].judged || OUTCOME_CLASSES[o].error;

/** classname: the first tag, else the expected-or-top-1 category, so CI groups failures by topic. */
const classname = (r: QuestionResult): string => `answer-eval.${r.tags[0] ?? top1(r)?.category ?? 'questions'}`;

/** What a question asked and got, as a testcase's text. */
function details(r: QuestionResult): string[] {
  const seen = matchedAnswer(r);
  return [
    `question: ${r.question}`,
    `expected: ${describeExpected(r.expected)}`,
    `got: ${describeGot(r)}`,
    ...(r.reason ? [`why: ${r.reason}`] : []),
    `answer: ${top1(r)?.answer ?? ''}`,
    ...(seen && r.outcome !== 'correct' ? [`expected answer (seen at rank ${r.rank}): ${seen.answer}`] : []),
  ];
}

/**
 * A failing testcase before its standing against a baseline is known: written as a failure, or, against a
 * baseline, skipped when this change did not make it fail (`settle`).
 */
export interface FailingTestcase {
  of: 'question' | 'conversation';
  id: string;
  /** The opening `<testcase ...` without its `>`. */
  head: string;
  type: string;
  message: string;
  detail: string;
}

/** A testcase's XML, or a failing one that waits for its standing. */
export type Testcase = string | FailingTestcase;

/** A testcase's XML: a failing one gets its standing's text first, then why it fails, and is skipped when it does not count. */
export function settle(t: Testcase, baseline: BaselineStandings | undefined): string {
  if (typeof t === 'string') return t;
  const standing: Standing | undefined = t.of === 'question' ? baseline?.question(t.id) : baseline?.conversation(t.id);
  const s = standing === undefined ? undefined : STANDINGS[standing];
  if (s !== undefined && !s.fails) return `${t.head}>\n      <skipped message="${a(`${s.text}: ${t.message}`)}"/>\n      <system-out>${x(t.detail)}</system-out>\n    </testcase>`;
  const said = s === undefined ? t.message : `${s.text}: ${t.message}`;
  return `${t.head}>\n      <failure type="${a(t.type)}" message="${a(said)}">${x(t.detail)}</failure>\n    </testcase>`;
}

function testcase(r: QuestionResult): Testcase {
  const head = `    <testcase classname="${a(classname(r))}" name="${a(`${r.id}: ${truncate(r.question, 120)}`)}" time="${seconds(r.latencyMs)}"`;
  const detail = details(r).join('\n');
  const c = OUTCOME_CLASSES[r.outcome];
  if (c.error) {
    const type = r.error?.kind ?? 'error';
    return `${head}>\n      <error type="${a(type)}" message="${a(r.error?.message ?? 'error')}">${x(detail)}</error>\n    </testcase>`;
  }
  if (c.failing) {
    const message = `${r.outcome}: ${r.reason ?? `expected ${describeExpected(r.expected)}, got ${describeGot(r)}`}`;
    return { of: 'question', id: r.id, head, type: r.outcome, message, detail };
  }
  return `${head}/>`;
}

/**
 * One conversation as one testcase (classname: its first tag, else `conversations`): a failure naming its first
 * failing turn and why, or an error naming the turn that ended in error (the turns after it were not asked); the
 * text lists every turn.
 */
function conversationTestcase(turns: readonly QuestionResult[]): Testcase {
  const first = turns[0]!;
  const c = first.conversation!;
  const time = turns.reduce((sum, r) => sum + (r.latencyMs ?? 0), 0);
  const head = `    <testcase classname="${a(`answer-eval.${first.tags[0] ?? 'conversations'}`)}" name="${a(`${c.id}: ${truncate(first.question, 100)} (${turns.length} turns)`)}" time="${seconds(time)}"`;
  const detail = [`conversation: ${c.id}, asked as ${c.user}`, ...turns.map((r) => [`turn ${r.conversation!.turn}: ${OUTCOME_CLASSES[r.outcome].label}`, ...details(r).map((l) => `  ${l}`)].join('\n'))].join('\n\n');
  const decided = turns.find((r) => r.conversation!.turn === c.at);
  if (decided === undefined) return `${head}/>`;
  const at = `turn ${c.at} of ${c.turns} ("${truncate(decided.question, 60)}")`;
  if (c.verdict === 'error') {
    const skipped = c.at! < c.turns ? `; turns ${c.at! + 1}-${c.turns} not asked` : '';
    const message = `error at ${at}: ${decided.error?.message ?? 'error'}${skipped}`;
    return `${head}>\n      <error type="${a(decided.error?.kind ?? 'error')}" message="${a(message)}">${x(detail)}</error>\n    </testcase>`;
  }
  const message = `failed at ${at}: ${decided.outcome}: ${decided.reason ?? `expected ${describeExpected(decided.expected)}, got ${describeGot(decided)}`}`;
  return { of: 'conversation', id: c.id, head, type: decided.outcome, message, detail };
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

/** A single question's testcase, or a conversation's (its turns, from byConversation); undefined when it is none. */
export function testcaseOf(item: QuestionResult | readonly QuestionResult[]): Testcase | undefined {
  if (isTurns(item)) return conversationTestcase(item);
  return isTestcase(item.outcome) ? testcase(item) : undefined;
}

const isTurns = (item: QuestionResult | readonly QuestionResult[]): item is readonly QuestionResult[] => Array.isArray(item);

/** The testcases, a result at a time: a single question's as it comes, a conversation's once its last turn is read. */
function* testcases(results: Iterable<QuestionResult>, baseline: BaselineStandings | undefined): Generator<string> {
  for (const item of byConversation(results)) {
    const t = testcaseOf(item);
    if (t !== undefined) yield `\n${settle(t, baseline)}`;
  }
}

/**
 * junit.xml: the gates first (a testsuite of their own, when any was set), then one testcase per labeled question, per
 * question that ended in error (labeled or not: an error is the service's failure whatever was expected, and the
 * suite's errors are the run's error count), and per conversation; wrong / abstained / fallback_missed are failures,
 * transport and protocol errors are errors, a conversation fails at its first failing turn or errs at the turn that
 * ended in error. Unlabeled questions that got a response are omitted (nothing to pass or fail); their count is the
 * suite's property `unlabeled`. Against a baseline (`o.baseline`), a failure this change did not cause (failing in
 * the baseline too, quarantined, not judged there) is skipped, saying why. The suite totals come from the summary,
 * the conversation metrics and the baseline's standings, so one pass writes it.
 */
export function* renderJunit(data: ScoredData, o: JunitOptions = {}): Generator<string> {
  yield junitOpening(data.head, o);
  yield* testcases(data.results, o.baseline);
  yield JUNIT_CLOSING;
}

/** junit.xml up to its first testcase (renderJunit): the totals, the gates' testsuite, the properties. */
export function junitOpening(report: ScoredData['head'], o: JunitOptions = {}): string {
  const conversations = report.metrics.conversations;
  const singles = minusCounts(report.summary.outcomes, conversations?.turnOutcomes);
  const time = seconds(report.run.durationMs);
  const tests = OUTCOMES.reduce((n, k) => n + (isTestcase(k) ? singles[k] : 0), 0) + (conversations?.count ?? 0);
  const skipped = o.baseline?.skipped ?? 0;
  const failures = failingCount(singles) + (conversations?.verdicts.failed ?? 0) - skipped;
  const errors = singles.error + (conversations?.verdicts.error ?? 0);
  const attrs = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}"`;
  const gates = report.gates;
  const gateFailures = gates ? gates.results.filter((r) => !r.passed).length : 0;
  const totals = gates
    ? `tests="${tests + gates.results.length}" failures="${failures + gateFailures}" errors="${errors}" skipped="${skipped}" time="${time}"`
    : attrs;
  const timestamp = report.run.startedAt.replace(/\.\d+Z$/, '');
  const props = [
    ['baseUrl', report.run.baseUrl], ['agent', report.run.agent], ['dataset', report.run.dataset.path],
    ['status', report.run.status], ['unlabeled', String(singles.unlabeled)], ['tool', `${report.tool.name} ${report.tool.version}`],
    ...(o.baseline ? [['baseline', o.baseline.file]] : []),
  ].map(([k, v]) => `      <property name="${a(k)}" value="${a(v)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="answer-eval" ${totals}>${gates ? gateSuite(gates, timestamp) : ''}`,
    `  <testsuite name="${a(report.run.dataset.path)}" ${attrs} timestamp="${a(timestamp)}" hostname="answer-eval">`,
    '    <properties>',
    ...props,
    '    </properties>',
  ].join('\n');
}

/** What follows the last testcase. */
export const JUNIT_CLOSING = '\n  </testsuite>\n</testsuites>\n';
