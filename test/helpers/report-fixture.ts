import { mulberry32 } from '../../src/util/random.js';
import { MetricsSchema, type Interval, type Metrics, type Slice, type ThresholdPoint } from '../../src/model/metrics.js';
import { ReportSchema, SCHEMA_VERSION, type QuestionResult, type Report, type ReportAnswer } from '../../src/model/report.js';
import { OUTCOMES, type Outcome } from '../../src/model/outcome.js';
import { top1 } from '../../src/score/result.js';
import { summarize } from '../../src/score/summary.js';
import { EntryIndex, EntryTable } from '../../src/score/metrics/entries.js';
import { thresholdAnalysis } from '../../src/score/metrics/thresholds.js';
import { withReason } from './results.js';

/** Strings that must never run or be taken as a formula by whatever renders a report. */
export const HOSTILE = {
  script: '<script>window.__xss=1</script>',
  img: '<img src=x onerror="window.__xss=1">',
  formula: '=HYPERLINK("http://evil.example","click")',
  quotes: `"Tom & Jerry's" <plan> | a&b`,
  unicode: 'Größe – 日本語 – ✓ 🚀',
} as const;

// mulberry32, so fixtures are the same on every run
const rng = mulberry32;

const CATEGORIES = ['billing', 'shipping', 'account', 'returns', 'privacy', 'technical'] as const;
const LANGUAGES = ['en', 'en', 'en', 'de', 'fr', 'ja'] as const;
const TAGS = ['faq', 'web', 'app', 'smalltalk', 'seasonal'] as const;
/** Per category: chance that an answerable question comes out correct (returns and privacy are weak). */
const SKILL: Record<string, number> = { billing: 0.88, shipping: 0.8, account: 0.85, returns: 0.5, privacy: 0.62, technical: 0.75 };

const answer = (seq: number, text: string, category: string, flags: Partial<ReportAnswer> = {}): ReportAnswer => ({
  answer: text,
  sequence_number: seq,
  answer_score: 0,
  tags: [category],
  label: `${category}-${seq}`,
  category,
  is_agent_answer: true,
  is_dummy_answer: false,
  is_dummy_floor_answer: false,
  is_suggestion_answer: false,
  is_international_question: false,
  is_dialog_in_progress: false,
  is_dialogue_answer: false,
  delay: 0,
  ...flags,
});

function knowledgeBase(): ReportAnswer[] {
  const kb: ReportAnswer[] = [];
  for (let seq = 1; seq <= 36; seq++) {
    const category = CATEGORIES[(seq - 1) % CATEGORIES.length]!;
    let text = `Answer ${seq} about ${category}: see the ${category} help page, section ${seq}.`;
    if (seq === 7) text = `${HOSTILE.script} Reset your password from the account page.`;
    if (seq === 8) text = `${HOSTILE.img} Refunds take 5 days.`;
    if (seq === 9) text = HOSTILE.formula;
    if (seq === 10) text = `${HOSTILE.quotes} plans compared.`;
    if (seq === 11) text = `${HOSTILE.unicode} international shipping.`;
    kb.push(answer(seq, text, category));
  }
  return kb;
}

const DUMMY = answer(900, 'Hello! How can I help you?', 'smalltalk', { label: 'smalltalk', is_dummy_answer: true, tags: [] });
const FLOOR = answer(999, 'Sorry, I do not know that yet.', 'fallback', { label: 'floor', is_dummy_floor_answer: true, tags: [] });

const QUESTION_TEMPLATES = ['How do I change my {c} settings?', 'Where can I find {c} information?', 'Why was my {c} request refused?', 'Can you explain {c} for students?'];

function questionText(i: number, category: string, pick: <T>(xs: readonly T[]) => T): string {
  if (i % 37 === 3) return `${HOSTILE.script} what about ${category}?`;
  if (i % 37 === 5) return `${HOSTILE.img} ${category}?`;
  if (i % 37 === 7) return HOSTILE.formula;
  if (i % 37 === 11) return `${HOSTILE.quotes} ${category}?`;
  if (i % 37 === 13) return `${HOSTILE.unicode} ${category}?`;
  return pick(QUESTION_TEMPLATES).replace('{c}', category);
}

/** One deterministic result whose outcome is consistent with its answers. */
function makeResult(i: number, kb: ReportAnswer[], rand: () => number): QuestionResult {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const score = (lo: number, hi: number) => Math.round((lo + rand() * (hi - lo)) * 1000) / 1000;
  const target = pick(kb);
  const category = target.category!;
  const language = pick(LANGUAGES);
  const tags = rand() < 0.7 ? [pick(TAGS)] : [pick(TAGS), pick(TAGS)].filter((t, k, all) => all.indexOf(t) === k);
  const kind = rand();
  const expect: 'answer' | 'fallback' | null = kind < 0.8 ? 'answer' : kind < 0.9 ? 'fallback' : null;
  const r = rand();
  let outcome: Outcome;
  if (rand() < 0.02) outcome = 'error';
  else if (expect === null) outcome = 'unlabeled';
  else if (expect === 'fallback') outcome = r < 0.7 ? 'fallback_ok' : 'fallback_missed';
  else outcome = r < SKILL[category]! ? 'correct' : r < SKILL[category]! + (1 - SKILL[category]!) * 0.7 ? 'wrong' : 'abstained';

  let top: ReportAnswer | undefined;
  let topScore = 0;
  if (outcome === 'correct') [top, topScore] = [target, score(0.55, 0.98)];
  else if (outcome === 'wrong' || outcome === 'fallback_missed' || outcome === 'unlabeled') {
    const others = kb.filter((a) => a.sequence_number !== target.sequence_number);
    // wrong answers cluster: returns questions often get the shipping answers
    const near = others.filter((a) => a.category === (category === 'returns' ? 'shipping' : category));
    [top, topScore] = [near.length > 0 && rand() < 0.6 ? pick(near) : pick(others), score(0.3, 0.8)];
  } else if (outcome === 'abstained' || outcome === 'fallback_ok') [top, topScore] = [rand() < 0.8 ? FLOOR : DUMMY, score(0.1, 0.35)];

  const answers: ReportAnswer[] = [];
  if (top) {
    answers.push({ ...top, answer_score: topScore });
    const runnersUp = 1 + Math.floor(rand() * 4);
    for (let k = 0; k < runnersUp; k++) {
      const other = pick(kb);
      if (answers.some((a) => a.sequence_number === other.sequence_number)) continue;
      answers.push({ ...other, answer_score: Math.round(topScore * (0.3 + rand() * 0.6) * 1000) / 1000, is_suggestion_answer: rand() < 0.2 });
    }
  }
  const unordered = answers.length > 2 && rand() < 0.05;
  if (unordered) answers.reverse();
  const top1Index = answers.length === 0 ? null : answers.indexOf(answers.reduce((a, b) => (b.answer_score > a.answer_score ? b : a)));
  const rankIdx = outcome === 'correct' ? 1 : expect === 'answer' && answers.some((a) => a.sequence_number === target.sequence_number) ? 2 : null;
  const sorted = [...answers].sort((a, b) => b.answer_score - a.answer_score);
  return {
    id: `q${String(i + 1).padStart(5, '0')}`,
    line: i + 2,
    question: questionText(i, category, pick),
    language,
    tags,
    expected: expect === 'answer' ? { expect, label: [target.label!] } : { expect },
    outcome,
    top1Index,
    answers,
    unordered,
    latencyMs: outcome === 'error' ? null : Math.round(Math.exp(5 + rand() * 1.6) * 100) / 100,
    attempts: outcome === 'error' ? 3 : rand() < 0.05 ? 2 : 1,
    error: outcome === 'error' ? { kind: 'http', status: 503, message: 'HTTP 503 <Service Unavailable> & "retry"' } : null,
    rank: expect === 'answer' && outcome !== 'error' ? rankIdx : null,
    margin: sorted.length >= 2 ? Math.round((sorted[0]!.answer_score - sorted[1]!.answer_score) * 1000) / 1000 : null,
  };
}

function wilson(successes: number, n: number): Interval {
  if (n === 0) return { value: null, low: null, high: null, successes, n };
  const z = 1.96;
  const p = successes / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { value: p, low: Math.max(0, c - h), high: Math.min(1, c + h), successes, n };
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
function meanInterval(xs: number[]) {
  const m = mean(xs);
  if (m === null) return { value: null, low: null, high: null };
  const sd = xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
  const spread = 1.96 * (sd / Math.sqrt(xs.length));
  return { value: m, low: Math.max(0, m - spread), high: Math.min(1, m + spread) };
}
const quantile = (xs: number[], q: number): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

function histogram(values: number[], lo: number, hi: number, bins: number) {
  const edges = Array.from({ length: bins + 1 }, (_, k) => Math.round((lo + ((hi - lo) * k) / bins) * 1e6) / 1e6);
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * bins)))]!++;
  return { edges, counts };
}

const distribution = (values: number[]) => ({
  count: values.length,
  percentiles: { p10: quantile(values, 0.1), p25: quantile(values, 0.25), p50: quantile(values, 0.5), p75: quantile(values, 0.75), p90: quantile(values, 0.9) },
  histogram: histogram(values, 0, 1, 20),
});

function rankMetrics(rs: QuestionResult[]) {
  const ranked = rs.filter((r) => r.expected.expect === 'answer' && r.error === null);
  const at = (k: number) => (ranked.length === 0 ? null : ranked.filter((r) => r.rank != null && r.rank <= k).length / ranked.length);
  return {
    questions: ranked.length,
    hit1: at(1),
    hit3: at(3),
    hit5: at(5),
    mrr: mean(ranked.map((r) => (r.rank ? 1 / r.rank : 0))),
    mrrInterval: meanInterval(ranked.map((r) => (r.rank ? 1 / r.rank : 0))),
    meanMargin: mean(rs.flatMap((r) => (r.margin == null ? [] : [r.margin]))),
  };
}

function slice(key: string, rs: QuestionResult[]): Slice {
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, rs.filter((r) => r.outcome === o).length])) as Slice['outcomes'];
  const labeledOk = rs.length - outcomes.unlabeled - outcomes.error;
  return {
    key,
    total: rs.length,
    outcomes,
    top1Accuracy: wilson(outcomes.correct + outcomes.fallback_ok, labeledOk),
    answerableAccuracy: wilson(outcomes.correct, outcomes.correct + outcomes.wrong + outcomes.abstained),
    rank: rankMetrics(rs),
    errorRate: rs.length === 0 ? 0 : outcomes.error / rs.length,
  };
}

function breakdown(results: QuestionResult[], keys: (r: QuestionResult) => string[]): Slice[] {
  const groups = new Map<string, QuestionResult[]>();
  for (const r of results) for (const k of keys(r)) {
      const group = groups.get(k) ?? [];
      group.push(r);
      groups.set(k, group);
    }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, rs]) => slice(k, rs));
}

/** The entry table, as the scoring computes it (its own tests check it by hand). */
function entryTable(results: QuestionResult[]) {
  const index = new EntryIndex();
  for (const r of results) index.add(r);
  const table = new EntryTable(index);
  for (const r of results) table.add(r);
  return table.result();
}

/** A plausible `metrics` for the results, validated against the contract. */
export function fixtureMetrics(results: QuestionResult[]): Metrics {
  const s = summarize(results);
  const all = results.length;
  const count = (p: (r: QuestionResult) => boolean) => results.filter(p).length;
  const labeledOk = all - s.outcomes.unlabeled - s.outcomes.error;
  const topScore = (r: QuestionResult) => top1(r)?.answer_score ?? 0;
  const isNon = (r: QuestionResult) => { const t = top1(r); return !t || t.is_dummy_answer || t.is_dummy_floor_answer; };
  const answerable = results.filter((r) => r.expected.expect === 'answer' && r.error === null);
  const outOfScope = results.filter((r) => r.expected.expect === 'fallback' && r.error === null);
  const curve: ThresholdPoint[] = Array.from({ length: 21 }, (_, k) => {
    const t = k / 20;
    const answeredCorrectly = answerable.length === 0 ? 0 : answerable.filter((r) => r.outcome === 'correct' && topScore(r) >= t).length / answerable.length;
    const coverage = answerable.length === 0 ? 0 : answerable.filter((r) => !isNon(r) && topScore(r) >= t).length / answerable.length;
    const refusedCorrectly = outOfScope.length === 0 ? 0 : outOfScope.filter((r) => isNon(r) || topScore(r) < t).length / outOfScope.length;
    const objective = answeredCorrectly + refusedCorrectly === 0 ? 0 : (2 * answeredCorrectly * refusedCorrectly) / (answeredCorrectly + refusedCorrectly);
    return { threshold: t, answeredCorrectly, refusedCorrectly, coverage, objective };
  });
  const recommended = curve.reduce((best, p) => (p.objective > best.objective ? p : best), curve[0]!);
  const confusions = new Map<string, { expected: string; got: string; count: number; examples: string[] }>();
  for (const r of results) {
    const t = top1(r);
    if (r.outcome !== 'wrong' || !t) continue;
    const expected = r.expected.label?.[0] ?? '?';
    const got = t.label ?? String(t.sequence_number);
    const c = confusions.get(`${expected}\u0000${got}`) ?? { expected, got, count: 0, examples: [] };
    c.count++;
    if (c.examples.length < 5) c.examples.push(r.id);
    confusions.set(`${expected}\u0000${got}`, c);
  }
  const latencies = results.flatMap((r) => (r.error === null && r.latencyMs !== null ? [r.latencyMs] : []));
  const metrics: Metrics = {
    intervals: {
      top1Accuracy: wilson(s.outcomes.correct + s.outcomes.fallback_ok, labeledOk),
      answerableAccuracy: wilson(s.outcomes.correct, s.outcomes.correct + s.outcomes.wrong + s.outcomes.abstained),
      outOfScopeRecall: wilson(s.outcomes.fallback_ok, s.outcomes.fallback_ok + s.outcomes.fallback_missed),
      rates: {
        dummy: wilson(count((r) => top1(r)?.is_dummy_answer === true), all),
        floor: wilson(count((r) => top1(r)?.is_dummy_floor_answer === true), all),
        suggestion: wilson(count((r) => top1(r)?.is_suggestion_answer === true), all),
        empty: wilson(count((r) => r.error === null && r.answers.length === 0), all),
        error: wilson(s.outcomes.error, all),
      },
    },
    rank: rankMetrics(results),
    scores: {
      correct: distribution(results.filter((r) => r.outcome === 'correct' || r.outcome === 'fallback_ok').filter((r) => top1(r)).map(topScore)),
      notCorrect: distribution(results.filter((r) => r.outcome === 'wrong' || r.outcome === 'abstained' || r.outcome === 'fallback_missed').filter((r) => top1(r)).map(topScore)),
    },
    latency: { p50: s.latencyMs.p50, p90: s.latencyMs.p90, p99: s.latencyMs.p99, max: s.latencyMs.max, histogram: histogram(latencies, 0, 1000, 20) },
    thresholds: {
      objective: 'f1',
      objectiveText: 'F1 of in-scope accuracy and out-of-scope recall',
      oosShare: null,
      maxAccuracyDrop: null,
      answerable: answerable.length,
      outOfScope: outOfScope.length,
      replayableFrom: 0,
      curve,
      recommended,
      // the real estimate from these results (the fixture's curve is a coarse grid of its own)
      crossValidated: thresholdAnalysis(results).crossValidated,
    },
    breakdowns: {
      language: breakdown(results, (r) => [r.language]),
      tag: breakdown(results, (r) => r.tags),
      // the category of the expected answer (its label is `<category>-<seq>`), else of the top-1
      category: breakdown(results, (r) => [r.expected.label?.[0]?.split('-')[0] ?? top1(r)?.category ?? '(category unknown)']),
    },
    entries: entryTable(results),
    confusions: [...confusions.values()].sort((a, b) => b.count - a.count || (a.expected < b.expected ? -1 : 1)).slice(0, 20),
    outOfScopeMisses: [],
  };
  return MetricsSchema.parse(metrics);
}

export interface FixtureOptions {
  seed?: number;
  /** Include `metrics` (default true): false makes an older-style report with `summary` only. */
  metrics?: boolean;
}

/** A realistic, deterministic report of `n` questions, hostile strings included, valid against ReportSchema. */
export function makeReport(n: number, { seed = 42, metrics = true }: FixtureOptions = {}): Report {
  const rand = rng(seed);
  const kb = knowledgeBase();
  const results = Array.from({ length: n }, (_, i) => withReason(makeResult(i, kb, rand)));
  const report: Report = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'answer-eval', version: '0.1.0' },
    run: {
      startedAt: '2025-01-02T03:04:05.000Z',
      finishedAt: '2025-01-02T03:09:05.000Z',
      durationMs: 300_000,
      status: 'completed',
      baseUrl: 'https://answers.example.test',
      embeddedEngine: false,
      agent: 'demo-agent',
      dataset: { path: 'datasets/faq <&>.csv', sha256: 'ab'.repeat(32), questions: n },
      options: { concurrency: 8, timeoutMs: 30_000, retries: 2, language: 'en', output: 'json', guest: true, forceSubscription: false },
    },
    summary: summarize(results),
    ...(metrics ? { metrics: fixtureMetrics(results) } : {}),
    results,
  };
  return ReportSchema.parse(report);
}
