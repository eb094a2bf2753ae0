import { inconsistentTable } from '../consistency.js';
import { describeExpected, describeGot, pct, truncate } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import { failingConversations, firstFailing, type Dimension, type SliceView } from '../insights.js';
import { OUTCOME_CLASSES } from '../../model/outcome.js';
import type { QuestionResult } from '../../model/report.js';
import { top1 } from '../../score/result.js';
import { latencyChart, scoreChart, sliceBars, thresholdChart } from './charts.js';
import { gotoAttrs, type PageContext } from './page.js';
import { conversationsSection } from './sections-conversations.js';
import { coverageSection } from './sections-coverage.js';
import { entriesSection } from './sections-entries.js';
import { floorAdvice, overviewSection } from './sections-overview.js';

/**
 * One section of report.html: an `<section id>` with its heading, and a link in the page's navigation.
 * The page shows them in SECTIONS order; a new view is one function and one line there.
 */
export interface PageSection {
  id: string;
  title: string;
  /** The navigation link's text (default: the title). */
  nav?: (page: PageContext) => string;
  /** Whether the page has it (default: always), e.g. conversations only for a run that holds some. */
  when?: (page: PageContext) => boolean;
  /** The section's HTML; a generator when it needs a pass over the results. */
  render: (page: PageContext, results: Iterable<QuestionResult>) => string | Generator<string>;
}

export const SECTIONS: readonly PageSection[] = [
  { id: 'overview', title: 'At a glance', nav: () => 'Overview', render: overviewSection },
  {
    id: 'conversations',
    title: 'Conversations',
    nav: (p) => (failingConversations(p.metrics.conversations!) > 0 ? `Conversations (${failingConversations(p.metrics.conversations!)} failing)` : 'Conversations'),
    when: (p) => p.metrics.conversations !== undefined,
    render: conversationsSection,
  },
  { id: 'questions', title: 'Questions', nav: (p) => (p.attention > 0 ? `Questions (${p.attention} failing)` : 'Questions'), render: questionsSection },
  { id: 'entries', title: 'Knowledge-base entries', nav: (p) => `Entries (${p.metrics.entries.length})`, render: entriesSection },
  {
    id: 'coverage',
    title: 'Knowledge-base coverage',
    nav: (p) => `Coverage (${p.report.coverage!.untested.length} untested)`,
    when: (p) => p.report.coverage !== undefined,
    render: coverageSection,
  },
  { id: 'slices', title: 'Categories, languages and tags', nav: () => 'Categories', render: slicesSection },
  { id: 'floor', title: 'Floor threshold, scores and latency', nav: () => 'Floor & latency', render: floorSection },
];

/** The sections this page has, in order. */
export const sectionsOf = (page: PageContext): PageSection[] => SECTIONS.filter((s) => s.when?.(page) ?? true);

const figure = (caption: string, chart: string | null, note = ''): string =>
  chart === null ? '' : `<figure><figcaption>${h(caption)}</figcaption>${chart}${note ? `<div class="hint">${note}</div>` : ''}</figure>`;

/** A table of the slices of one dimension, worst first; a row click shows its questions. */
export function sliceTable(list: SliceView[], dim: Dimension, limit = 15): string {
  if (list.length === 0) return '';
  const rows = list.slice(0, limit).map((s) => {
    const range = s.low !== null && s.high !== null ? ` <span class="ci">${pct(s.low, 0)}–${pct(s.high, 0)}</span>` : '';
    return `<tr class="filterable goto"${gotoAttrs({ [dim]: s.key })} tabindex="0" title="show these questions"><td>${h(s.key)}</td><td class="num">${pct(s.accuracy)}${range}</td><td class="num">${s.failures}</td><td class="num">${s.errors}</td><td class="num">${s.total}</td></tr>`;
  });
  const more = list.length > limit ? `<tr><td colspan="5" class="hint">… ${list.length - limit} more ${dim} slices</td></tr>` : '';
  return `<div class="table-wrap"><table class="slices"><caption>By ${dim}, worst first</caption><thead><tr><th>${dim}</th><th class="num">top-1 accuracy</th><th class="num">failing</th><th class="num">errors</th><th class="num">questions</th></tr></thead><tbody>${rows.join('')}${more}</tbody></table></div>`;
}

/** Accuracy by category, language and tag: bars and tables, each slice a link to its questions. */
export function slicesSection({ slices, metrics }: PageContext): string {
  const inconsistent = inconsistentTable(metrics);
  return `<div class="grid2">
${figure('Top-1 accuracy by category, worst first', sliceBars('Top-1 accuracy by category', slices.category, 'category'), 'bar: top-1 accuracy · line: 95% interval · number: questions · click a bar for its questions')}
${figure('Top-1 accuracy by language, worst first', sliceBars('Top-1 accuracy by language', slices.language, 'language'))}
</div>
<div class="grid2 tables">
${sliceTable(slices.category, 'category')}
${sliceTable(slices.language, 'language')}
${sliceTable(slices.tag, 'tag')}${inconsistent ? `<div class="table-wrap">${inconsistent}</div>` : ''}
</div>`;
}

/** The recommended floor and the curve it comes from, the score histogram and the latency. */
export function floorSection(page: PageContext): string {
  const { report, metrics } = page;
  const from = metrics.thresholds.replayableFrom;
  return `<div class="grid-advice">
<section class="card floor-advice"><h3>Recommended floor threshold</h3>${floorAdvice(page, false)}</section>
${figure('What each floor would do', thresholdChart(report), `${from === null ? '' : `From ${h(from)}, the lowest score the service answered with: no lower floor can be judged from this run. `}Hover a point for its figures.`)}
</div>
<div class="grid2">
${figure('Top-1 score: correct vs not correct', scoreChart(report), `Not-correct answers scoring above the threshold are the ones a floor cannot catch.${metrics.conversations ? ' A turn whose answer was right counts as correct here even when a dialogue check failed (check failed): a floor acts on answers.' : ''}`)}
${figure('Latency', latencyChart(report))}
</div>`;
}

const TABLE_HEAD = [
  ['line', '#', 'num', '52px'], ['id', 'id', '', '96px'], ['question', 'question', '', '26%'], ['language', 'lang', '', '56px'], ['outcome', 'outcome', '', '118px'],
  ['', 'expected', '', '14%'], ['', 'top-1 answer', '', '30%'], ['score', 'score', 'num', '64px'], ['latency', 'ms', 'num', '60px'],
].map(([sort, label, cls, width]) => `<th${sort ? ` data-sort="${sort}"` : ''} class="${cls}" style="width:${width}">${label}</th>`).join('');

/** The question table's controls and frame (the page's script fills it), and the first failing questions without JavaScript. */
export function* questionsSection(page: PageContext, results: Iterable<QuestionResult>): Generator<string> {
  yield `<div id="q-controls" hidden>
<select id="f-outcome" aria-label="outcome"></select>
<select id="f-category" aria-label="category"></select>
<select id="f-language" aria-label="language"></select>
<select id="f-tag" aria-label="tag"></select>
<span id="f-entry" class="chip-filter" hidden><span id="f-entry-text"></span><button type="button" id="f-entry-clear" aria-label="clear the entry filter">×</button></span>
<input id="f-search" type="search" placeholder="search id, question, expected, answer…" aria-label="search">
<select id="f-size" aria-label="rows per page"></select>
<button id="p-prev" type="button">‹ prev</button><button id="p-next" type="button">next ›</button>
</div>
<div id="table-status"></div>
`;
  yield noscriptFailures(results, page.attention);
  yield `
<div class="qt-wrap"><table id="q-table" class="qt"><thead><tr>${TABLE_HEAD}</tr></thead><tbody id="q-body"></tbody></table></div>
<p class="hint">Click a row for the full ranked answer list with its flags (bold: the top-1 by score; green edge: the first answer meeting the expectations). A click on an entry, a slice, a confusion or an example anywhere on the page filters this table.</p>`;
}

const label = (o: QuestionResult['outcome']): string => OUTCOME_CLASSES[o].label;

/** With JavaScript off: the first failing questions, so the page still says what is wrong. */
export function noscriptFailures(results: Iterable<QuestionResult>, count: number, limit = 30): string {
  const first = count > 0 ? firstFailing(results, limit) : [];
  const rows = first.map((r) => {
    const top = top1(r);
    return `<tr><td>${h(r.id)}</td><td><span class="badge o-${r.outcome}">${h(label(r.outcome))}</span></td><td>${h(truncate(r.question, 120))}</td><td>${h(describeExpected(r.expected))}</td><td>${h(describeGot(r))}${top ? `<div class="answer">${h(truncate(top.answer, 160))}</div>` : ''}</td><td>${h(r.reason ?? '')}</td></tr>`;
  });
  return `<noscript><p class="hint">JavaScript is off: the interactive table (filters, search, every question) needs it. The first ${first.length} of ${count} failing questions:</p><div class="table-wrap"><table class="qt"><thead><tr><th>id</th><th>outcome</th><th>question</th><th>expected</th><th>got</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></noscript>`;
}
