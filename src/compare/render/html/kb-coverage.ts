import { escapeHtml as h } from '../../../report/escape.js';
import type { Comparison } from '../../schema.js';
import { coverageChange, KB_LISTS } from '../kb-coverage.js';

/** Rows per list of entries on the page; compare.json lists every one. */
export const KB_ROWS = 500;

/** The first screen's card: the coverage figure and how many entries lost their last test; empty without coverage. */
export function kbCoverageCard(c: Comparison): string {
  const k = c.kbCoverage;
  if (!k) return '';
  const lost = k.lostLastTest.length;
  return `<section class="card"><h3>KB coverage</h3><div class="big"><span class="${lost ? 'bad' : ''}">${lost.toLocaleString('en')}</span> <small>lost their last test</small></div>` +
    `<div class="ci">${h(coverageChange(k))}</div><a href="#kb-coverage" class="jump">the entries →</a></section>`;
}

/** The knowledge base's coverage, BASE to HEAD: the change, then each list of entries. Empty without coverage. */
export function kbCoverageSection(c: Comparison): string {
  const k = c.kbCoverage;
  if (!k) return '';
  const tables = KB_LISTS.map(([key, title, meaning]) => {
    const list = k[key];
    if (list.length === 0) return `<p class="hint" id="kb-${key}">${h(title)}: none.</p>`;
    const rows = list.slice(0, KB_ROWS).map((e) => `<tr><td class="num">${e.sequence}</td><td>${h(e.label ?? '')}</td><td>${h(e.title)}${e.dialogueOnly ? ' <span class="hint">(dialogue only)</span>' : ''}</td></tr>`).join('');
    const more = list.length > KB_ROWS ? `<tr><td colspan="3" class="hint">… and ${list.length - KB_ROWS} more: compare.json lists every one</td></tr>` : '';
    return `<div class="panel"><table class="kb-coverage" id="kb-${key}"><caption>${h(title)} · ${list.length}: ${h(meaning)}</caption><thead><tr><th class="num">sequence</th><th>label</th><th>title</th></tr></thead><tbody>${rows}${more}</tbody></table></div>`;
  });
  return `<h2 id="kb-coverage">Knowledge-base coverage</h2>\n<p>${h(coverageChange(k))}</p>\n${tables.join('\n')}`;
}
