import { ms, pct, truncate } from '../../report/describe.js';
import { escapeHtml as h } from '../../report/escape.js';
import { pageScript } from '../../report/html/script.js';
import { htmlPage } from '../../report/html/shell.js';
import { STYLES } from '../../report/html/styles.js';
import type { Trend, TrendRun } from '../schema.js';
import { SERIES, seriesChart } from './charts.js';
import { verdictBanner } from '../../report/verdict.js';
import { verdictOf } from '../../model/verdict.js';
import { deltaPoints, realRuns, runLabel, streakRuns, whatIfNote, withInterval } from './format.js';

/** Rows shown per question table; trend.json has every one. */
const TABLE_LIMIT = 1000;

/** What trend.html is written with besides the history. */
export interface TrendPageOptions {
  /** Each run's report.html as a link from trend.html, in `trend.runs` order (undefined: none to link). */
  reports?: readonly (string | undefined)[];
}

const TREND_STYLES = `
svg .band{fill:var(--accent);opacity:.16}svg .change .mark{stroke:var(--warn)}svg .change text{fill:var(--warn)}
input.filter{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);width:260px;max-width:100%;margin:4px 0 8px}
td.changes{font-size:12px;color:var(--muted)}
.table-wrap{margin-bottom:12px}#failing{min-width:760px}#runs{min-width:900px}#flaky{min-width:520px}
td.id,td.when,td.path{white-space:nowrap}
.badge.whatif{background:transparent;border:1px dashed var(--muted);color:var(--muted)}svg circle.whatif{fill:var(--card);stroke:var(--muted);stroke-width:1.5}
`;

const card = (title: string, body: string, cls = ''): string => `<section class="card ${cls}"><h3>${h(title)}</h3>${body}</section>`;

function cards(trend: Trend): string {
  const real = realRuns(trend);
  const last = real.at(-1)!;
  const prev = real.at(-2);
  const fresh = trend.failing.filter((q) => q.newFailure).length;
  const figure = (title: string, i: (typeof last.figures)['top1Accuracy'], before: number | null | undefined, cls = '') =>
    card(title, `<div class="big">${pct(i.value)}</div><div class="ci">${h(withInterval(i))}</div>${before !== undefined ? `<div class="hint">${h(deltaPoints(before, i.value))} since the run before</div>` : ''}`, cls);
  return `<div class="cards">${[
    figure('Top-1 accuracy (latest)', last.figures.top1Accuracy, prev?.figures.top1Accuracy.value, 'hero'),
    figure('In-scope accuracy (latest)', last.figures.answerableAccuracy, prev?.figures.answerableAccuracy.value),
    figure('Out-of-scope recall (latest)', last.figures.outOfScopeRecall, prev?.figures.outOfScopeRecall.value),
    card('Failing now', `<div class="big">${trend.failing.length}</div><div class="hint">${fresh} new since they last passed</div>`),
    card('Flaky', `<div class="big">${trend.flaky.length}</div><div class="hint">top-1 correctness flipped ≥ ${trend.options.flakyFlips} times with nothing changed</div>`),
    card('History', `<div class="big">${real.length}</div><div class="hint">runs${whatIfNote(trend) ? ` (${h(whatIfNote(trend))})` : ''} · ${trend.questions} questions · latency p90 now ${h(ms(last.figures.latencyP90))}</div>`),
  ].join('')}</div>`;
}

function runsTable(trend: Trend, reports: TrendPageOptions['reports'] = []): string {
  const report = (i: number, path: string) => (reports[i] === undefined ? h(path) : `<a href="${h(reports[i])}">${h(path.replace(/report\.json$/, 'report.html'))}</a>`);
  const rows = trend.runs.map((r, i) => `<tr><td class="num">${i + 1}</td><td class="when">${h(runLabel(r, 'long'))}</td><td>${h(r.status)}${r.whatIf ? ` <span class="badge whatif" title="${h(`rescore of ${r.whatIf.from}: ${r.whatIf.what}`)}">what-if</span> ${h(r.whatIf.what)}` : ''}</td><td class="num">${r.total}</td>`
    + `<td class="num">${pct(r.figures.top1Accuracy.value)}</td><td class="num">${pct(r.figures.answerableAccuracy.value)}</td><td class="num">${pct(r.figures.outOfScopeRecall.value)}</td>`
    + `<td class="num">${pct(r.figures.errorRate.value)}</td><td class="num">${h(ms(r.figures.latencyP90))}</td><td class="changes">${r.changes.map((c) => h(c.what)).join('<br>')}</td><td class="changes path">${report(i, r.path)}</td></tr>`);
  return `<table class="slices" id="runs"><caption>Runs, oldest first${trend.whatIfs?.included ? '; a what-if (a report written by rescore) right after the run it came from' : ''}</caption><thead><tr><th class="num">#</th><th>started</th><th>status</th><th class="num">questions</th><th class="num">top-1</th><th class="num">in-scope</th><th class="num">oos recall</th><th class="num">errors</th><th class="num">p90</th><th>changed before this run</th><th>report</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const more = (n: number, cols: number): string => (n > TABLE_LIMIT ? `<tfoot><tr><td colspan="${cols}" class="hint">… ${n - TABLE_LIMIT} more in trend.json</td></tr></tfoot>` : '');

function failingTable(trend: Trend): string {
  if (trend.failing.length === 0) return '<p class="hint">No question fails in the latest run.</p>';
  const rows = trend.failing.slice(0, TABLE_LIMIT).map((q) => {
    const since = trend.runs[q.failingSince]!;
    return `<tr><td class="id">${h(q.id)}</td><td>${h(truncate(q.question, 140))}</td><td><span class="badge o-${h(q.outcome)}">${h(q.outcome)}</span></td>`
      + `<td class="when">${h(runLabel(since, 'long', q.failingSince))}</td><td class="num">${streakRuns(trend, q.failingSince)}</td><td>${q.everPassed ? 'yes' : '<b>never</b>'}</td><td>${q.newFailure ? '<b>new</b>' : ''}</td><td>${h(q.reason ?? '')}</td></tr>`;
  });
  return `<input class="filter" type="search" data-table="failing" placeholder="filter id, question, reason…" aria-label="filter failing questions" hidden>
<div class="table-wrap"><table class="slices" id="failing"><caption>${trend.failing.length} failing in the latest run, most recent streaks first</caption><thead><tr><th>id</th><th>question</th><th>outcome</th><th>failing since</th><th class="num">runs</th><th>ever passed</th><th>new</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody>${more(trend.failing.length, 8)}</table></div>`;
}

function flakyTable(trend: Trend): string {
  if (trend.flaky.length === 0) return `<p class="hint">No question flipped ${trend.options.flakyFlips} times or more with nothing changed.</p>`;
  const rows = trend.flaky.slice(0, TABLE_LIMIT).map((q) => `<tr><td class="id">${h(q.id)}</td><td>${h(truncate(q.question, 140))}</td><td class="num">${q.flips}</td><td>${q.correctNow === null ? 'error' : q.correctNow ? 'correct' : 'failing'}</td></tr>`);
  return `<input class="filter" type="search" data-table="flaky" placeholder="filter id, question…" aria-label="filter flaky questions" hidden>
<div class="table-wrap"><table class="slices" id="flaky"><caption>${trend.flaky.length} flaky questions, most flips first</caption><thead><tr><th>id</th><th>question</th><th class="num">flips</th><th>latest</th></tr></thead><tbody>${rows.join('')}</tbody>${more(trend.flaky.length, 4)}</table></div>`;
}

/** The reports written by rescore: left out, or shown among the runs; each with the run it came from and what it changed. */
function whatIfBanner(trend: Trend): string {
  const w = trend.whatIfs;
  if (!w || w.runs.length === 0) return '';
  const why = w.included
    ? 'reports written by <code>answer-eval rescore</code> (a run\'s answers judged again), shown among the runs as what-ifs: they count for no failing, flaky or new question, nor for the gates'
    : 'reports written by <code>answer-eval rescore</code> (a run\'s answers judged again) are not nights of history; <code>--include-what-ifs</code> shows them';
  const items = w.runs.map((x) => `<li><code>${h(x.path)}</code>: rescore of <code>${h(x.from)}</code>, ${h(x.what)}</li>`).join('');
  return `<div class="banner whatifs">${h(whatIfNote(trend))}: ${why}<ul>${items}</ul></div>\n`;
}

/**
 * trend.html: one self-contained page (inline CSS, SVG and script; a Content-Security-Policy forbids any request):
 * the verdict, the headline figures over time with their 95% intervals and the runs where the dataset or the
 * service changed, the runs, the failing questions with the run their failure began, and the flaky ones.
 */
export function* renderTrendHtml(trend: Trend, options: TrendPageOptions = {}): Generator<string> {
  const script = pageScript('trend'); // first: a page without its script is not written at all
  const real = realRuns(trend);
  const note = whatIfNote(trend);
  const title = `answer-eval trend · ${real.length} run${real.length === 1 ? '' : 's'}${note ? ` (${note})` : ''}`;
  yield* htmlPage({ title, styles: `${STYLES}${TREND_STYLES}`, tool: trend.tool, script }, [trendBody(trend, real, title, options)]);
}

/** The page between its shell's head and footer; a history of no runs says so, and no more. */
function trendBody(trend: Trend, real: readonly TrendRun[], title: string, options: TrendPageOptions): string {
  const judged = verdictOf(trend.gates);
  const verdict = judged ? verdictBanner(judged) : '';
  const first = real[0];
  const last = real.at(-1);
  const top = `<header>
<h1>${h(title)}</h1>
<div class="hint">${first && last ? `${h(runLabel(first, 'long'))} → ${h(runLabel(last, 'long'))} · ` : ''}${trend.questions} questions · ${h(trend.tool.name)} ${h(trend.tool.version)} · trend schema ${h(trend.schemaVersion)}</div>
</header>
${verdict}
${(trend.leftOut ?? []).length > 0 ? `<div class="banner">Left out: <ul>${trend.leftOut!.map((l) => `<li><code>${h(l.path)}</code>: ${h(l.why)}</li>`).join('')}</ul></div>\n` : ''}${whatIfBanner(trend)}<main>
`;
  if (!first) return `${top}<p class="hint">No runs.</p></main>`;
  return `${top}<h2>Latest run</h2>
${cards(trend)}
<h2>Over time</h2>
<p class="hint">Line: the figure of each run; band: its 95% interval; dashed line: the dataset (D) or the service (S) changed before that run (hover it for what)${trend.whatIfs?.included ? '; hollow dot: a what-if (a run judged again by rescore), off the line' : ''}.</p>
<div class="grid2">
${SERIES.map((s) => `<figure><figcaption>${h(s.title)}</figcaption>${seriesChart(s, trend.runs)}</figure>`).join('\n')}
</div>
<h2>Failing in the latest run</h2>
${failingTable(trend)}
<h2>Flaky questions</h2>
${flakyTable(trend)}
<h2>Runs</h2>
<div class="table-wrap">${runsTable(trend, options.reports)}</div>
${trend.gates.length > 0 ? `<h2>Gates</h2><ul>${trend.gates.map((g) => `<li>${g.passed ? 'passed' : '<b>FAILED</b>'}: ${h(g.message)}</li>`).join('')}</ul>` : ''}
</main>`;
}
