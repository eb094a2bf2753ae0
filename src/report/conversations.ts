import type { ConversationMetrics, Interval } from '../model/metrics.js';
import { CONVERSATION_VERDICTS, type ConversationVerdict, type QuestionResult } from '../model/report.js';
import { TURN_CHECK_KEYS, TURN_CHECKS } from '../model/turn-checks.js';
import { pct } from './describe.js';
import { failingConversations } from './insights.js';
import { plural } from '../util/text.js';


/** `80.0% (95% CI 54.8–93.0%, 12/15)`, `n/a`. */
const rate = (i: Interval, bold = true): string => {
  if (i.value === null) return bold ? '**n/a**' : 'n/a';
  const value = bold ? `**${pct(i.value)}**` : pct(i.value);
  return `${value}${i.low !== null && i.high !== null ? ` (95% CI ${pct(i.low)}–${pct(i.high)}, ${i.successes}/${i.n})` : ''}`;
};

/** How the conversations ended, in words: `12 of 15 conversations passed, 3 failed, 0 ended in error`. */
export const verdictCounts = (c: ConversationMetrics): string =>
  `${c.verdicts.passed} of ${plural(c.count, 'conversation')} passed, ${c.verdicts.failed} failed, ${c.verdicts.error} ended in error`;

/** Where conversations break most, in words; empty when none failed. */
export const breaksMost = (c: ConversationMetrics): string =>
  c.breaksMost ? `conversations break most at turn ${c.breaksMost.turn} (${plural(c.breaksMost.conversations, 'conversation')})` : '';

/** Each turn check on its own: `post-processed answer 75.0% (3/4) · dialog 97.6% (40/41)`; only the checks some turn gave. */
export const checkRates = (c: ConversationMetrics): string =>
  TURN_CHECK_KEYS.filter((k) => c.checks[k].n > 0)
    .map((k) => `${TURN_CHECKS[k].noun} ${pct(c.checks[k].value)} (${c.checks[k].successes}/${c.checks[k].n})`)
    .join(' · ');

/** What decided a failing conversation, in words: the deciding turn's reason, or its error. */
export const whyConversation = (turn: QuestionResult): string =>
  turn.error ? `error: ${turn.error.message}` : `${turn.outcome}: ${turn.reason ?? ''}`;

/** The lines printed at the end of a run with conversations. */
export function conversationConsoleLines(c: ConversationMetrics): string[] {
  const { passed, failed, error } = c.verdicts;
  const lines = [`  conversations       ${c.count}: ${passed} passed, ${failed} failed, ${error} ended in error; pass rate ${rate(c.passRate, false)}`];
  const more = [breaksMost(c), checkRates(c) && `turn checks: ${checkRates(c)}`].filter((s) => s !== '');
  if (more.length > 0) lines.push(`                      ${more.join('; ')}`);
  return lines;
}

/** summary.md: the conversations' pass rate, turn accuracy by position, the checks, and the failing conversations (the first ones given). */
export function conversationsMarkdown(c: ConversationMetrics, first: readonly QuestionResult[], md: (text: unknown, max?: number) => string): string[] {
  const lines = [
    '',
    `**Conversations**: ${verdictCounts(c)}; pass rate ${rate(c.passRate)}. Turn accuracy ${rate(c.turnAccuracy)}${c.breaksMost ? `; ${breaksMost(c)}` : ''}.`,
  ];
  if (checkRates(c) !== '') lines.push('', `Turn checks: ${checkRates(c)}`);
  lines.push('', '| turn | asked | accuracy | failed here | ended in error here |', '|---:|---:|---|---:|---:|');
  for (const p of c.byTurn) lines.push(`| ${p.turn} | ${p.asked} | ${rate(p.accuracy, false)} | ${p.failedHere} | ${p.errorsHere} |`);
  const count = failingConversations(c);
  if (count > 0) {
    const shown = first.length < count ? ` (first ${first.length})` : '';
    lines.push('', `<details><summary>${plural(count, 'failing conversation')}${shown}</summary>`, '', '| conversation | verdict | turn | question | why |', '|---|---|---|---|---|');
    for (const r of first) {
      const t = r.conversation!;
      lines.push(`| ${md(t.id, 30)} | ${t.verdict} | ${t.turn} of ${t.turns} | ${md(r.question, 60)} | ${md(whyConversation(r), 160)} |`);
    }
    lines.push('', '</details>');
  }
  return lines;
}

/** How the HTML pages colour a conversation's verdict: a badge of class `v-passed`, `v-failed` or `v-error`. */
export const VERDICT_COLOURS: Record<ConversationVerdict, string> = { passed: 'var(--ok)', failed: 'var(--bad)', error: 'var(--err)' };
export const VERDICT_BADGE_CSS = CONVERSATION_VERDICTS.map((v) => `.v-${v}{background:${VERDICT_COLOURS[v]}}`).join('');
