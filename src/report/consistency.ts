import type { Consistency, Metrics } from '../model/metrics.js';
import { pct } from './describe.js';
import { gotoLink } from './html/page.js';
import { escapeHtml as h } from './escape.js';

/** How a run with --repeat is scored, in words: every report says it. */
export const SCORED_ON_FIRST = 'each question is scored on its first answer; the further askings only say whether its top-1 stayed the same';

const top1s = (list: readonly (number | null)[]): string => list.map((s) => (s === null ? '—' : String(s))).join(' → ');

const figure = (c: Consistency): string => {
  const i = c.interval;
  return i.value === null ? '**n/a**' : `**${pct(i.value)}**${i.low !== null && i.high !== null ? ` (95% CI ${pct(i.low)}–${pct(i.high)}, ${i.successes}/${i.n})` : ''}`;
};

/** summary.md: the consistency line and the inconsistent questions (first 50); nothing for a run without --repeat. */
export function consistencyMarkdown(metrics: Metrics, md: (text: unknown, max?: number) => string): string[] {
  const c = metrics.consistency;
  if (!c) return [];
  const lines = ['', `Consistency over ${c.repeat} askings: ${figure(c)} of questions got the same top-1 every time; ${SCORED_ON_FIRST}.`];
  if (c.inconsistent.length > 0) {
    lines.push('', `<details><summary>${c.interval.n - c.interval.successes} inconsistent questions${c.inconsistent.length < c.interval.n - c.interval.successes ? ` (first ${c.inconsistent.length})` : ''}</summary>`, '', '| id | top-1 sequence number of each asking |', '|---|---|');
    for (const q of c.inconsistent) lines.push(`| ${md(q.id, 30)} | ${md(top1s(q.top1), 120)} |`);
    lines.push('', '</details>');
  }
  return lines;
}

/** report.html: the consistency card; empty for a run without --repeat. */
export function consistencyCard(metrics: Metrics): string {
  const c = metrics.consistency;
  if (!c) return '';
  const i = c.interval;
  const ci = i.low !== null && i.high !== null ? `<div class="ci">95% CI ${pct(i.low)}–${pct(i.high)} · ${i.successes}/${i.n}</div>` : '';
  return `<section class="card"><h3>Consistency · ${c.repeat} askings</h3><div class="big">${pct(i.value)}</div>${ci}<div class="hint">same top-1 every time; ${h(SCORED_ON_FIRST)}</div></section>`;
}

/** report.html: the questions whose top-1 changed between askings (first 50); empty when none or without --repeat. */
export function inconsistentTable(metrics: Metrics): string {
  const c = metrics.consistency;
  if (!c || c.inconsistent.length === 0) return '';
  const rows = c.inconsistent.map((q) => `<tr><td>${gotoLink({ id: q.id }, h(q.id), 'example')}</td><td>${h(top1s(q.top1))}</td></tr>`).join('');
  const shown = c.inconsistent.length < c.interval.n - c.interval.successes ? `, the first ${c.inconsistent.length}` : '';
  return `<table class="slices" id="inconsistent"><caption>${c.interval.n - c.interval.successes} questions whose top-1 changed between askings${shown}</caption><thead><tr><th>id</th><th>top-1 sequence number of each asking</th></tr></thead><tbody>${rows}</tbody></table>`;
}
