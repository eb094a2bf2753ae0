import { escapeHtml as h } from '../escape.js';
import type { ScoredData } from '../../model/source.js';
import { encodePageData, pageIndex } from './data.js';
import { pageContext } from './page.js';
import { pageScript } from './script.js';
import { sectionsOf } from './sections.js';
import { htmlPage } from './shell.js';
import { CONVERSATION_STYLES, STYLES } from './styles.js';
import { verdictBanner } from '../verdict.js';

/** What report.html is written with besides the report (the renderers' options: src/report/formats.ts). */
export interface ReportPageOptions {
  /** The run was compared with this baseline (`run --baseline`): compare.html is beside report.html. */
  baseline?: { readonly file: string } | undefined;
}

/** Links to the pages written with this one: compare.html, for a run with a baseline. */
const pageLinks = (o: ReportPageOptions): string =>
  o.baseline ? `<p class="page-links"><a href="compare.html">compare.html</a>: this run against its baseline, ${h(o.baseline.file)}</p>\n` : '';

/** The run in one line of facts, each wrapping as a whole on a narrow screen. */
function runFacts(data: ScoredData): string {
  const { run, tool, schemaVersion } = data.head;
  const facts = [
    `${run.baseUrl}${run.embeddedEngine ? ' (embedded engine)' : ''}`,
    `agent ${run.agent}`,
    `started ${run.startedAt}`,
    `${Math.round(run.durationMs / 1000)} s`,
    `${tool.name} ${tool.version}`,
    `schema ${schemaVersion}`,
  ];
  return `<ul class="run-meta">${facts.map((f) => `<li>${h(f)}</li>`).join('')}</ul>`;
}

/**
 * report.html: one self-contained page (inline CSS, script and data, no request of any kind: src/report/html/shell.ts).
 * The sections (SECTIONS, one function each) are rendered here as HTML and SVG, so they show with JavaScript off;
 * the question table, and the conversations' threads, are built in the page from the embedded, gzip-compressed data,
 * one page at a time, by the page's script (src/pages/report.ts, bundled). Passes over the results: three (entry
 * index, failing questions without JavaScript, page data), four with conversations (the failing ones without JavaScript).
 */
export function* renderHtml(data: ScoredData, options: ReportPageOptions = {}): Generator<string> {
  const report = data.head;
  const { run } = report;
  const page = pageContext(data);
  // read first: a page without its script is not written at all
  const script = pageScript(page.metrics.conversations ? 'report-conversations' : 'report');
  const index = pageIndex(data);
  const sections = sectionsOf(page);
  const title = `answer-eval · ${run.dataset.path}`;
  const styles = `${STYLES}${page.metrics.conversations ? CONVERSATION_STYLES : ''}`;
  yield* htmlPage({ title, styles, tool: report.tool, script, data: encodePageData(data.results, { index }) }, body());

  function* body(): Generator<string> {
    yield `<header>
<h1>${h(title).replace(/\//g, '/<wbr>')}</h1>
${runFacts(data)}
${pageLinks(options)}</header>
${report.gates ? `${verdictBanner(report.gates)}\n` : ''}${run.status === 'partial' ? `<div class="banner">Partial run: ${h(report.summary.total)} of ${h(run.dataset.questions)} questions were asked${run.stopReason ? ` (${h(run.stopReason)})` : ''}.</div>\n` : ''}<nav class="toc" aria-label="sections">${sections.map((s) => `<a href="#${s.id}"${s.id === 'questions' && page.attention > 0 ? ' class="attention"' : ''}>${h(s.nav?.(page) ?? s.title)}</a>`).join('')}</nav>
<main>
`;
    for (const section of sections) {
      yield `<section id="${section.id}">\n<h2>${h(section.title)}</h2>\n`;
      const rendered = section.render(page, data.results);
      if (typeof rendered === 'string') yield rendered;
      else yield* rendered;
      yield '\n</section>\n';
    }
    yield '</main>';
  }
}
