import { truncate } from '../../util/text.js';
import { md } from '../../report/markdown.js';
import { verdictMarkdown } from '../../report/verdict.js';
import type { Comparison, ConversationChange, ConversationComparison, CoverageChange, DriftGroup, EditedQuestion, QuestionChange, QuestionSide, SliceComparison } from '../schema.js';
import { brokenFixed, conversationSets, passRateText, sideText, turnText } from './conversations.js';
import { coverageChange, KB_LISTS } from './kb-coverage.js';
import { interval, metricRows, mrrDeltaText, mrrText, compareWarnings, pts, pValue, quarantineText, questionSets, score, scoreDelta, scopeNote, verdict } from './format.js';

/** Rows per list in the Markdown: a PR comment is limited in size; compare.html has them all. */
const MAX_ROWS = 30;

const top = (s: QuestionSide): string => (s.top1 === null ? '(no answer)' : `${truncate(s.top1.answer, 80)} (#${s.top1.sequence_number}, ${score(s.top1.score)})`);
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

function table(header: string[], rows: string[][], total: number): string[] {
  if (total === 0) return [];
  const out = [row(header), row(header.map(() => '---')), ...rows.slice(0, MAX_ROWS).map(row)];
  if (total > MAX_ROWS) out.push('', `… and ${total - MAX_ROWS} more (see compare.html).`);
  return out;
}

function questions(title: string, list: QuestionChange[], total: number): string[] {
  if (list.length === 0) return [];
  const header = ['id', 'question', 'base', 'head'];
  const rows = list.map((q) => [
    md(q.id),
    md(q.question, 80),
    `${md(q.base.outcome)}: ${md(top(q.base), 120)}`,
    `${md(q.head.outcome)}: ${md(top(q.head), 120)}`,
  ]);
  return ['', `### ${title} (${total})`, '', ...table(header, rows, total)];
}

/** Score drift grouped by entry, most drifting first: where the scores moved, not thousands of rows. */
function drift(c: Comparison): string[] {
  if (c.counts.drift === 0) return [];
  const groups: DriftGroup[] = c.drift.byEntry;
  const shown = groups.slice(0, 15);
  const rows = shown.map((g) => [md(g.key), String(g.count), `${g.up} / ${g.down}`, scoreDelta(g.mean), `${scoreDelta(g.min)} … ${scoreDelta(g.p50)} … ${scoreDelta(g.max)}`]);
  const out = ['', `### Score drift (${c.counts.drift}): same top-1, score moved; by entry`, '', ...table(['top-1 entry', 'questions', 'up / down', 'mean Δ', 'min … median … max'], rows, rows.length)];
  if (groups.length > shown.length) out.push('', `… and ${groups.length - shown.length} more entries (see compare.html).`);
  return out;
}

function coverage(title: string, list: CoverageChange[], total: number): string[] {
  if (list.length === 0) return [];
  return ['', `### ${title} (${total})`, '', ...table(['id', 'question', 'outcome'], list.map((q) => [md(q.id), md(q.question, 80), md(q.outcome)]), total)];
}

function edited(list: EditedQuestion[], total: number): string[] {
  if (list.length === 0) return [];
  const rows = list.map((q) => [
    md(q.id),
    md(q.edits.join(', ')),
    q.edits.includes('question') ? `${md(q.baseQuestion, 60)} → ${md(q.question, 60)}` : md(q.question, 80),
    q.edits.includes('expectation') ? `${md(q.expected.base, 40)} → ${md(q.expected.head, 40)}` : md(q.expected.head, 40),
    `${md(q.base.outcome)} → ${md(q.head.outcome)}`,
  ]);
  return ['', `### Changed questions, not compared (${total})`, '', ...table(['id', 'edited', 'question', 'expected', 'outcome'], rows, total)];
}

/** Broken or fixed conversations: each with both endings and the first turn whose outcome changed, and HEAD's reason. */
function conversationChanges(title: string, list: ConversationChange[], total: number): string[] {
  if (list.length === 0) return [];
  const rows = list.map((c) => [
    md(c.id),
    `${md(sideText(c.base))} → ${md(sideText(c.head))}`,
    md(turnText(c.turn, '→')),
    md(c.turn.question, 60),
    md(c.turn.reason ?? '', 160),
  ]);
  return ['', `### ${title} (${total})`, '', ...table(['conversation', 'base → head', 'changed at', 'question', 'why (head)'], rows, total)];
}

/** The conversations: how the sets relate, broken and fixed ones, then those in one run only and those edited. */
function conversations(c: ConversationComparison): string[] {
  const n = c.counts;
  const status = n.broken > 0 ? `**${brokenFixed(c)}**` : brokenFixed(c);
  const lines = ['', `**Conversations**: ${conversationSets(c)}; ${status}; ${passRateText(c, '→')} over the common ones.`];
  lines.push(...conversationChanges('Broken conversations: passed, now failed or in error', c.broken, n.broken));
  lines.push(...conversationChanges('Conversations that broke, but are quarantined (not counted as regressions)', c.quarantined, n.quarantined));
  lines.push(...conversationChanges('Fixed conversations: failed or in error, now passed', c.fixed, n.fixed));
  const coverage = (title: string, list: ConversationComparison['added'], total: number): string[] =>
    list.length === 0 ? [] : ['', `### ${title} (${total})`, '', ...table(['conversation', 'turns', 'verdict', 'first question'], list.map((a) => [md(a.id), String(a.turns), md(sideText(a)), md(a.question, 60)]), total)];
  lines.push(...coverage('Added conversations', c.added, n.added));
  lines.push(...coverage('Removed conversations', c.removed, n.removed));
  if (c.changed.length > 0) {
    const rows = c.changed.map((e) => [md(e.id), `${e.base.turns} → ${e.head.turns}`, e.editedTurns.join(', ') || '—', `${md(sideText(e.base))} → ${md(sideText(e.head))}`]);
    lines.push('', `### Changed conversations, not compared (${n.changed})`, '', ...table(['conversation', 'turns', 'edited turns', 'verdict'], rows, n.changed));
  }
  return lines;
}

/** The knowledge base's coverage: the change, then the entries that lost their last test, were newly tested, or added untested. */
function kbCoverage(c: Comparison): string[] {
  const k = c.kbCoverage;
  if (!k) return [];
  const lines = ['', `**Knowledge-base coverage**: ${md(coverageChange(k), 400)}.`];
  for (const [key, title, meaning] of KB_LISTS) {
    const list = k[key];
    if (list.length === 0) continue;
    const rows = list.map((e) => [String(e.sequence), md(e.label ?? '', 40), md(e.title, 80)]);
    lines.push('', `### ${title} (${list.length}): ${meaning}`, '', ...table(['sequence', 'label', 'title'], rows, list.length));
  }
  return lines;
}

function slices(title: string, list: SliceComparison[]): string[] {
  const moved = list.filter((s) => s.mcnemar.b + s.mcnemar.c > 0).sort((a, b) => a.pHolm - b.pHolm || a.key.localeCompare(b.key));
  if (moved.length === 0) return [];
  const rows = moved.map((s) => [md(s.key), String(s.n), String(s.mcnemar.b), String(s.mcnemar.c), pts(s.top1Accuracy.delta), interval(s.top1Accuracy), mrrDeltaText(s.mrr), pValue(s.mcnemar.p), pValue(s.pHolm)]);
  return ['', `### By ${title} (slices with a change)`, '', ...table([title, 'n', 'broken', 'fixed', 'accuracy Δ', '95% CI', 'MRR Δ', 'p', 'p (Holm)'], rows, moved.length)];
}

/** compare.md: a summary for a pull-request comment or a job summary. */
export function renderCompareMarkdown(c: Comparison): string {
  const n = c.counts;
  const status = n.broken > 0 ? `**${n.broken} broken**` : 'no broken question';
  const note = scopeNote(c);
  const lines = [
    // the gates' verdict comes first: a pull-request comment opens on it
    ...(c.gates ? [...verdictMarkdown(c.gates, (t) => md(t, 2000)), ''] : []),
    '## answer-eval: compare',
    '',
    `Base ${md(c.base.file, 200)} (${md(c.base.startedAt)}) → head ${md(c.head.file, 200)} (${md(c.head.startedAt)}), agent ${md(c.head.agent)}.`,
    '',
    `Questions: ${questionSets(c)}${note === null ? '' : `; ${note}`}.`,
    '',
    `${status}${c.quarantine ? `, ${n.quarantined} broke, but quarantined` : ''}, ${n.fixed} fixed, ${n.top1Changed} top-1 changed (same correctness), ${n.drift} score drift, ${n.errors} with errors.`,
    '',
    `${verdict(c)}.`,
  ];
  const mrr = mrrText(c);
  if (mrr !== null) lines.push('', `${md(mrr, 400)}.`);
  const quarantine = quarantineText(c);
  if (quarantine !== null) lines.push('', `${md(quarantine, 600)}.`);
  for (const f of c.forced) lines.push('', `⚠️ compared with --force: ${md(f, 400)}`);
  for (const w of compareWarnings(c)) lines.push('', `⚠️ ${md(w, 600)}`);
  lines.push('', ...table(['metric', 'base', 'head', 'Δ'], metricRows(c), 1));
  const q = c.questions;
  lines.push(...questions('Broken', q.broken, n.broken));
  lines.push(...questions('Broke, but quarantined (not counted as regressions)', q.quarantined, n.quarantined));
  lines.push(...questions('Fixed', q.fixed, n.fixed));
  if (c.conversations) lines.push(...conversations(c.conversations));
  lines.push(...kbCoverage(c));
  lines.push(...questions('Top-1 changed, same correctness', q.top1Changed, n.top1Changed));
  lines.push(...drift(c));
  lines.push(...coverage('Added questions', q.added, n.added));
  lines.push(...coverage('Removed questions', q.removed, n.removed));
  lines.push(...edited(q.changed, n.changed));
  lines.push(...questions('Errors (not counted as regressions)', q.errors, n.errors));
  lines.push(...slices('tag', c.slices.tag));
  lines.push(...slices('category', c.slices.category));
  return `${lines.join('\n')}\n`;
}
