import type { GateResult, Verdict } from '../model/verdict.js';
import { escapeHtml as h } from './escape.js';
import { plural } from '../util/text.js';


/** `every gate passed (3 gates)` or `1 of 3 gates FAILED`. */
export function verdictTitle(v: Verdict): string {
  const failed = v.results.filter((r) => !r.passed).length;
  return failed === 0 ? `every gate passed (${plural(v.results.length, 'gate')})` : `${failed} of ${plural(v.results.length, 'gate')} FAILED`;
}

/** Why the verdict failed: the failed gates' messages; empty when it passed. */
const reasons = (v: Verdict): string => v.results.filter((r) => !r.passed).map((r) => r.message).join('; ');

/** The verdict in one line: `every gate passed (3 gates)` or `1 of 3 gates FAILED: <why>; <why>`. */
export function verdictHeadline(v: Verdict): string {
  return v.passed ? verdictTitle(v) : `${verdictTitle(v)}: ${reasons(v)}`;
}

/** One gate in words: `passed: <message>` or `FAILED: <message>`. */
export const gateLine = (r: GateResult): string => `${r.passed ? 'passed' : 'FAILED'}: ${r.message}`;

/**
 * The verdict as the first lines of a Markdown file (summary.md, compare.md, the job summary): a bold headline,
 * then one line per gate. `escape` makes the data-bearing messages (question ids) safe in Markdown.
 */
export function verdictMarkdown(v: Verdict, escape: (text: string) => string): string[] {
  const mark = (passed: boolean): string => (passed ? '✅' : '❌');
  return [
    `**${mark(v.passed)} answer-eval: ${verdictTitle(v)}**${v.passed ? '' : `: ${escape(reasons(v))}`}`,
    '',
    ...v.results.map((r) => `- ${mark(r.passed)} \`${r.gate}\` ${escape(gateLine(r))}`),
  ];
}

/** The verdict as a banner at the top of an HTML page (class `verdict pass` or `verdict fail`; the page styles it). */
export function verdictBanner(v: Verdict): string {
  const items = v.results.map((r) => `<li class="${r.passed ? 'pass' : 'fail'}"><code>${h(r.gate)}</code> ${h(gateLine(r))}</li>`).join('');
  return `<div class="verdict ${v.passed ? 'pass' : 'fail'}" role="status"><strong>answer-eval: ${h(verdictTitle(v))}</strong>${v.passed ? '' : `: ${h(reasons(v))}`}<ul>${items}</ul></div>`;
}

/** CSS for the banner, shared by report.html and compare.html. */
export const VERDICT_CSS =
  '.verdict{margin:8px 28px;padding:8px 12px;border-radius:6px;border:1px solid}.verdict ul{margin:4px 0 0;padding-left:18px}' +
  '.verdict.pass{background:#e7f6ec;color:#14532d;border-color:#9fd8b3}.verdict.fail{background:#fde8e8;color:#7a1414;border-color:#f1a1a1}' +
  '.verdict li.fail{font-weight:600}';
