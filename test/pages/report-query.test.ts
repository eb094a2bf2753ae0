import { describe, expect, it } from 'vitest';
import { needsAttention } from '../../src/model/outcome.js';
import { R } from '../../src/pages/report/data.js';
import { factsOf } from '../../src/pages/report/detail.js';
import { questionText, selectQuestions, type QuestionQuery } from '../../src/pages/report/query.js';
import { pageView } from '../../src/pages/report/view.js';
import { needleOf, textSearch } from '../../src/pages/shared/search.js';
import { computeMetrics } from '../../src/score/metrics/index.js';
import { arraySource } from '../../src/model/source.js';
import { reportPageData } from '../helpers/page-data.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

// The question table's query (src/pages/report/query.ts) and the detail's facts, on the page data of a real report:
// what they select is checked against the results and the metrics the data came from.

const fixture = makeReport(240);
const report = { ...fixture, metrics: computeMetrics(arraySource(fixture.results)) };
const view = pageView(reportPageData(report));
const matches = textSearch((i) => questionText(view, i));
const query = (q: Partial<QuestionQuery>): string[] =>
  selectQuestions(view, { outcome: '', category: '', language: '', tag: '', expected: '', got: '', needle: '', sort: { key: 'line', desc: false }, ...q }, matches).map((i) => view.rows[i]![R.id]);

describe('the question table’s query', () => {
  it('opens on the failing questions (failures and errors), in dataset order', () => {
    expect(query({ outcome: 'failing' })).toEqual(report.results.filter((r) => needsAttention(r.outcome)).map((r) => r.id));
  });

  it('combines an outcome, a language and a tag; a value no question has matches none', () => {
    const wanted = report.results.filter((r) => r.outcome === 'correct' && r.language === 'de' && r.tags.includes('faq')).map((r) => r.id);
    expect(wanted.length).toBeGreaterThan(0);
    expect(query({ outcome: 'correct', language: 'de', tag: 'faq' })).toEqual(wanted);
    expect(query({ language: 'xx' })).toEqual([]);
    expect(query({ outcome: 'no-such-outcome' })).toEqual([]);
  });

  it('counts an entry as the entry table does: the questions that expect it, and those whose top-1 it is', () => {
    for (const entry of report.metrics.entries.slice(0, 5)) {
      expect(query({ expected: entry.key })).toHaveLength(entry.expected);
      expect(query({ got: entry.key })).toHaveLength(entry.answered);
    }
  });

  it('searches id, question, answer and error, in any case, and finds hostile text as text', () => {
    expect(query({ needle: needleOf('  Q00017 ') })).toEqual(['q00017']);
    const hostile = query({ needle: needleOf(HOSTILE.img) });
    expect(hostile.length).toBeGreaterThan(0);
    for (const id of hostile) expect(questionText(view, view.rows.findIndex((r) => r[R.id] === id)).toLowerCase()).toContain(HOSTILE.img.toLowerCase());
  });

  it('sorts by score highest first, the exact reverse of lowest first; ties in dataset order', () => {
    const score = (id: string) => view.topOf(view.rows.findIndex((r) => r[R.id] === id))?.[1] ?? -1;
    const up = query({ sort: { key: 'score', desc: false } });
    const down = query({ sort: { key: 'score', desc: true } });
    expect(up.map(score)).toEqual([...up.map(score)].sort((a, b) => a - b));
    expect(down).toEqual([...up].reverse());
    const line = (id: string) => report.results.find((r) => r.id === id)!.line;
    for (let k = 1; k < up.length; k++) if (score(up[k]!) === score(up[k - 1]!)) expect(line(up[k]!)).toBeGreaterThan(line(up[k - 1]!));
  });
});

describe('the question detail’s facts', () => {
  it('says why first, then the question’s facts in order, leaving out those it has none of', () => {
    const i = report.results.findIndex((r) => r.reason !== undefined && r.error === null);
    const r = report.results[i]!;
    const facts = factsOf(view, i);
    expect(facts.map(([k]) => k).slice(0, 10)).toEqual(['why', 'question', 'expected', 'outcome', 'category', 'language', 'tags', 'latency', 'attempts', 'dataset line']);
    expect(Object.fromEntries(facts)).toMatchObject({ why: r.reason, question: r.question, 'dataset line': String(r.line), attempts: String(r.attempts) });
    expect(facts.map(([k]) => k)).not.toContain('error');
  });

  it('names the error of a question that has one, and its dataset columns after answer-eval’s facts', () => {
    const results = report.results.map((r, k) => (k === 0 ? { ...r, meta: { owner: 'team <b>', notes: 'x' } } : r));
    const v = pageView(reportPageData({ ...report, results }));
    const facts = factsOf(v, 0);
    expect(facts.slice(-2)).toEqual([['owner', 'team <b>'], ['notes', 'x']]);
    const e = report.results.findIndex((r) => r.error !== null);
    expect(Object.fromEntries(factsOf(view, e))['error']).toBe(`${report.results[e]!.error!.kind}: ${report.results[e]!.error!.message}`);
  });
});
