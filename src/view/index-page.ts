import type { ReportHead } from '../model/source.js';
import { escapeHtml as h } from '../report/escape.js';
import type { Found, FoundPage, FoundRun } from './find.js';

/** A link to a page under DIR: each segment of its path encoded. */
const href = (path: string): string => h(path.split('/').map(encodeURIComponent).join('/'));

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);

/** `2026-11-25 17:32 UTC` */
const when = (iso: string | Date): string => {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? String(iso) : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

const fileName = (path: string): string => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path;

/** Where the run asked: the embedded engine and its knowledge base, or the service and the agent. */
function target(head: ReportHead): string {
  const run = head.run;
  if (run.embeddedEngine) return `embedded engine${run.engine ? ` · ${h(fileName(run.engine.kb.path))}` : ''}`;
  let host = run.baseUrl;
  try {
    host = new URL(run.baseUrl).host;
  } catch {
    // shown as recorded
  }
  return `<span title="${h(run.baseUrl)}">${h(host)}</span> · agent ${h(run.agent)}`;
}

/** The marks of a run that is not a plain one: partial, a what-if, merged, a shard. */
function marks(head: ReportHead): string[] {
  const run = head.run;
  return [
    ...(run.status === 'partial' ? ['<span class="mark warn">partial</span>'] : []),
    ...(run.rescored ? ['<span class="mark">what-if (rescore)</span>'] : []),
    ...(run.mergedFrom ? [`<span class="mark">merged from ${run.mergedFrom.length} shards</span>`] : []),
    ...(run.shard ? [`<span class="mark">shard ${run.shard.index}/${run.shard.count}</span>`] : []),
  ];
}

function verdict(head: ReportHead): string {
  const gates = head.gates;
  if (!gates) return '<span class="muted">no gate</span>';
  const failed = gates.results.filter((g) => !g.passed).length;
  return gates.passed
    ? `<span class="verdict pass" title="${h(gates.results.map((g) => g.message).join('\n'))}">passed</span>`
    : `<span class="verdict fail" title="${h(gates.results.filter((g) => !g.passed).map((g) => g.message).join('\n'))}">${failed} of ${gates.results.length} gate${gates.results.length === 1 ? '' : 's'} FAILED</span>`;
}

/** A cell: its content in one box, so that a phone's card lays out label and value side by side. */
const td = (label: string, content: string, cls = ''): string => `<td data-label="${label}"${cls ? ` class="${cls}"` : ''}><span class="v">${content}</span></td>`;

const link = (page: FoundPage | undefined, label: string): string => (page ? `<a href="${href(page.path)}">${label}</a>` : '');

function runRow(r: FoundRun): string {
  const dir = r.dir === '' ? '.' : r.dir;
  if (!r.head) {
    return `<tr class="unreadable">${td('Started', '—')}${td('Run', h(dir))}<td data-label="Problem" colspan="8"><span class="v">report.json cannot be read: ${h(r.unreadable ?? 'unknown')}</span></td></tr>`;
  }
  const { run, summary: s } = r.head;
  const oos = r.head.metrics?.intervals.outOfScopeRecall.value;
  const pages = [link(r.report, 'report'), link(r.compare, 'compare'), link(r.summary, 'summary.md')].filter(Boolean).join(' · ');
  return [
    '<tr>',
    td('Started', `<time datetime="${h(run.startedAt)}">${h(when(run.startedAt))}</time>`, 'when'),
    td('Run', `${r.report ? `<a class="run" href="${href(r.report.path)}">${h(dir)}</a>` : h(dir)}${marks(r.head).join('')}`),
    td('Dataset', `<span title="${h(run.dataset.path)}">${h(fileName(run.dataset.path))}</span> <span class="muted count">${s.total.toLocaleString('en')} q.</span>`),
    td('Target', target(r.head)),
    td('In-scope acc.', pct(s.answerableAccuracy), 'num'),
    td('OOS recall', pct(oos), 'num'),
    td('Top-1 acc.', pct(s.top1Accuracy), 'num'),
    td('Errors', pct(s.rates.error), 'num'),
    td('Verdict', verdict(r.head)),
    td('Pages', pages || '<span class="muted">none</span>'),
    '</tr>',
  ].join('');
}

const pageList = (pages: readonly FoundPage[]): string =>
  `<ul class="pages">${pages.map((p) => `<li><a href="${href(p.path)}">${h(p.path)}</a> <span class="muted">written ${h(when(p.modified))}</span></li>`).join('')}</ul>`;

/** The index's one style (its Content-Security-Policy allows this one, by hash). */
export const INDEX_STYLE = `:root{--bg:#f6f7f9;--fg:#1d2330;--muted:#5d6679;--card:#fff;--line:#e3e6ec;--good:#1f7a4a;--bad:#b3261e;--warn:#8a5a00;--link:#1f56c9;--link-visited:#6b3fb5;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#14171d;--fg:#e6e8ee;--muted:#a3acbd;--card:#1d2129;--line:#2f3642;--good:#5fd097;--bad:#f07070;--warn:#e8b550;--link:#8fb3ff;--link-visited:#c6a6ff}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);overflow-wrap:break-word}
a{color:var(--link)}a:visited{color:var(--link-visited)}
header,main{padding:0 28px}header{padding-top:18px}
h1{margin:0;font-size:20px}h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}.sub{color:var(--muted);margin:4px 0 0;font-size:12.5px;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:8px}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr:last-child td{border-bottom:0}
a.run{font-weight:600;overflow-wrap:anywhere}
.mark{display:inline-block;margin-left:6px;padding:0 6px;border-radius:8px;border:1px solid var(--line);font-size:11.5px;color:var(--muted)}
.mark.warn{color:var(--warn);border-color:var(--warn)}
.verdict{font-weight:650;white-space:nowrap}td.when,.count{white-space:nowrap}.verdict.pass{color:var(--good)}.verdict.fail{color:var(--bad)}
ul.pages{margin:0;padding-left:18px}
.empty{padding:16px;background:var(--card);border:1px dashed var(--line);border-radius:8px}
footer{padding:24px 28px;color:var(--muted);font-size:12px}
@media (max-width:760px){header,main,footer{padding-left:12px;padding-right:12px}
table,tbody,tr,td{display:block;width:100%}thead{display:none}table{border:0;background:none}
tr{background:var(--card);border:1px solid var(--line);border-radius:8px;margin-bottom:10px;padding:6px 10px}
td{border:0;padding:3px 0;display:grid;grid-template-columns:8.5em minmax(0,1fr);gap:8px;text-align:left!important;white-space:normal!important}
td::before{content:attr(data-label);color:var(--muted);font-size:12px;padding-top:1px}}`;

/**
 * The index of `answer-eval view`: every run found under DIR, newest first (started, directory, dataset, target,
 * headline figures, verdict, links to its pages), then the trend and compare pages found apart. Self-contained (no
 * script, no request), every string from a report escaped.
 */
export function renderIndex(found: Found, dirName: string): string {
  const { runs, trends, compares } = found;
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>answer-eval · ${h(dirName)}</title><style>${INDEX_STYLE}</style></head>`;
  const counts = [`${runs.length} run${runs.length === 1 ? '' : 's'}`, ...(trends.length > 0 ? [`${trends.length} trend page${trends.length === 1 ? '' : 's'}`] : []), ...(compares.length > 0 ? [`${compares.length} comparison${compares.length === 1 ? '' : 's'}`] : [])];
  const table =
    runs.length === 0
      ? `<p class="empty">No run under ${h(dirName)}: a run writes its reports to <code>reports/&lt;timestamp&gt;</code> (or <code>--out DIR</code>).</p>`
      : `<table><thead><tr><th>Started</th><th>Run</th><th>Dataset</th><th>Target</th><th class="num">In-scope acc.</th><th class="num">OOS recall</th><th class="num">Top-1 acc.</th><th class="num">Errors</th><th>Verdict</th><th>Pages</th></tr></thead><tbody>${runs.map(runRow).join('')}</tbody></table>`;
  return [
    head,
    '<body>',
    `<header><h1>answer-eval runs</h1><p class="sub">${h(dirName)} · ${counts.join(' · ')}, newest first</p></header>`,
    '<main>',
    trends.length > 0 ? `<section><h2>Trends</h2>${pageList(trends)}</section>` : '',
    `<section><h2>Runs</h2>${table}${found.cut ? '<p class="muted">The search stopped after 20,000 directories: name a narrower directory to see every run.</p>' : ''}</section>`,
    compares.length > 0 ? `<section><h2>Comparisons</h2>${pageList(compares)}</section>` : '',
    '</main>',
    '<footer>Served read-only by answer-eval view. Figures: in-scope accuracy (answerable questions), out-of-scope recall, top-1 accuracy, share of questions in error.</footer>',
    '</body></html>',
  ].join('\n');
}
