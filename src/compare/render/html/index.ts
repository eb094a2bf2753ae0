import { escapeHtml as h } from '../../../report/escape.js';
import { verdictBanner } from '../../../report/verdict.js';
import type { ChangeSource } from '../../changes.js';
import type { Comparison } from '../../schema.js';
import { compareWarnings, quarantineText, questionSets, scopeNote } from '../format.js';
import { pageScript } from '../../../report/html/script.js';
import { htmlPage } from '../../../report/html/shell.js';
import { conversationsSection } from './conversations.js';
import { encodePageData } from './data.js';
import { kbCoverageSection } from './kb-coverage.js';
import { cards, driftHistogram, metricTable, noscriptBroken, sliceTable } from './sections.js';
import { STYLES } from './styles.js';

const TABLE_HEAD = [
  ['id', 'id', '', '15%'], ['question', 'question', '', '25%'], ['', 'base', '', '24%'], ['', 'head', '', '24%'], ['size', 'change', 'num', '12%'],
].map(([sort, label, cls, width]) => `<th${sort ? ` data-sort="${sort}"` : ''} class="${cls}" style="width:${width}">${label}</th>`).join('');

/** What compare.html is written with besides the comparison. */
export interface ComparePageOptions {
  /** Rows per class at most. @default PAGE_ROWS_PER_CLASS */
  pageRows?: number;
  /** Each run's report.html as a link from compare.html (undefined: none to link). */
  reports?: { base?: string | undefined; head?: string | undefined };
}

/** A run: its report, linked to its report.html when there is one, when it started, where. */
const side = (r: Comparison['base'], link: string | undefined): string =>
  `<b>${h(r.file)}</b>${link === undefined ? '' : ` <a href="${h(link)}">report.html</a>`} (${h(r.startedAt)}, ${h(r.baseUrl)})`;

/**
 * compare.html: one self-contained page (inline CSS, script and data; the CSP forbids any request). The verdict
 * and the metrics first, rendered here as HTML and SVG; then every change, in a table the page builds from the
 * embedded, gzip-compressed data one page at a time: by class, largest change first, sortable, filterable, with
 * score drift grouped by entry or category. Reads the changes once (twice when a class is over the page's limit).
 */
export function* renderCompareHtml(c: Comparison, changes: ChangeSource, options: ComparePageOptions = {}): Generator<string> {
  const script = pageScript('compare'); // first: a page without its script is not written at all
  const note = scopeNote(c);
  const quarantine = quarantineText(c);
  const body = `${c.gates ? `${verdictBanner(c.gates)}\n` : ''}<header>
<h1>answer-eval compare</h1>
<div class="meta">base ${side(c.base, options.reports?.base)} → head ${side(c.head, options.reports?.head)} · agent ${h(c.head.agent)} · dataset ${h(c.head.dataset.path)}</div>
</header>
${[...c.forced.map((f) => `compared with --force: ${f}`), ...compareWarnings(c)].map((w) => `<div class="forced">${h(w)}</div>`).join('\n')}
<main>
<p>Questions: ${h(questionSets(c))}${note === null ? '' : `<br><span class="hint">${h(note)}</span>`}${quarantine === null ? '' : `<br><span class="hint">${h(quarantine)}</span>`}</p>
${cards(c)}
<h2 id="metrics">Metrics</h2>
<div class="grid2 metrics">
<div>${metricTable(c)}</div>
<div>${sliceTable('category', c.slices.category)}</div>
</div>
${conversationsSection(c)}
${kbCoverageSection(c)}
<h2 id="changes">Changes</h2>
<div class="tabs" id="class-tabs" role="group" aria-label="class of change"></div>
<p id="class-title" class="hint"></p>
<div id="changes-controls" class="controls" hidden>
<input id="f-search" type="search" placeholder="search id, question, answer, label…" aria-label="search">
<select id="f-tag" aria-label="tag"></select>
<select id="f-category" aria-label="category"></select>
<select id="f-sort" aria-label="sort"></select>
<span id="f-group" class="chip" hidden><span id="f-group-text"></span><button id="f-group-clear" type="button" aria-label="clear the group filter">×</button></span>
</div>
<div id="drift-panel" class="drift-panel" hidden>
<figure><figcaption>How far the scores moved</figcaption>${driftHistogram(c)}<div class="hint">Every drifting question: same top-1 answer, score moved by more than ${h(c.options.scoreEpsilon)}.</div></figure>
<div class="panel"><table><caption>Drift grouped by <select id="g-by" aria-label="group drift by"><option value="entry">top-1 entry</option><option value="category">category</option></select></caption><thead><tr><th>group</th><th class="num">questions</th><th class="num">up / down</th><th class="num">mean Δ</th><th>distribution of Δ (p10–p90, median)</th></tr></thead><tbody id="groups-body"></tbody></table>
<div class="pager" style="padding:0 8px"><span id="groups-status" class="hint"></span><button id="g-prev" type="button">‹ prev</button><button id="g-next" type="button">next ›</button></div></div>
</div>
<div id="changes-status" class="status"></div>
<div id="changes-capped" class="hint" hidden></div>
${noscriptBroken(c)}
<div class="panel"><table id="changes" class="changes"><thead><tr>${TABLE_HEAD}</tr></thead><tbody id="changes-body"></tbody></table></div>
<div class="pager"><button id="p-prev" type="button">‹ prev</button><button id="p-next" type="button">next ›</button><select id="f-size" aria-label="rows per page"></select></div>
<p class="hint">Click a row for both top-1 answers in full. Click a category or tag slice to see its changes.</p>
<h2 id="tags">By tag</h2>
${sliceTable('tag', c.slices.tag) || '<p class="hint">No tags.</p>'}
</main>`;
  yield* htmlPage(
    {
      title: `answer-eval compare: ${c.base.file} → ${c.head.file}`,
      styles: STYLES,
      tool: c.tool,
      toolNote: ` · compare schema ${h(c.schemaVersion)}`,
      footerEnd: ' compare.json has the figures; changes.jsonl every change.',
      script,
      data: encodePageData(c, changes, options.pageRows),
    },
    [body],
  );
}
