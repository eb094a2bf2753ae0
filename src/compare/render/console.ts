import type { Comparison } from '../schema.js';
import { conversationConsoleLines } from './conversations.js';
import { kbCoverageConsoleLines } from './kb-coverage.js';
import { compareWarnings, pct, pts, quarantineText, questionSets, scopeNote, verdict } from './format.js';
import { oneLine } from '../../util/terminal.js';

/** The few lines printed after a comparison; a line quoting ids or file names from the reports stays one line. */
export function renderCompareConsole(c: Comparison): string {
  const n = c.counts;
  const lines = [
    `Compare: ${c.base.file} -> ${c.head.file}`,
    `  questions: ${questionSets(c)}`,
    `  broken ${n.broken}${c.quarantine ? `  broke, but quarantined ${n.quarantined}` : ''}  fixed ${n.fixed}  top-1 changed ${n.top1Changed}  score drift ${n.drift}  errors ${n.errors}`,
    `  top-1 accuracy ${pct(c.metrics.top1Accuracy.base)} -> ${pct(c.metrics.top1Accuracy.head)} (${pts(c.metrics.top1Accuracy.delta)})`,
    `  ${verdict(c)}`,
  ];
  const note = scopeNote(c);
  if (note !== null) lines.splice(2, 0, `  (${note})`);
  const shown = c.questions.broken.slice(0, 10);
  for (const q of shown) lines.push(`  broken: ${q.id} (${q.base.outcome} -> ${q.head.outcome})`);
  if (n.broken > shown.length) lines.push(`  ... and ${n.broken - shown.length} more broken (see compare.html)`);
  for (const q of c.questions.quarantined.slice(0, 10)) lines.push(`  broke, but quarantined: ${q.id} (${q.base.outcome} -> ${q.head.outcome})`);
  if (n.quarantined > 10) lines.push(`  ... and ${n.quarantined - 10} more that broke, but are quarantined (see compare.html)`);
  const quarantine = quarantineText(c);
  if (quarantine !== null) lines.push(`  ${quarantine}`);
  for (const q of c.questions.changed.slice(0, 10)) lines.push(`  changed: ${q.id} (${q.edits.join(', ')} edited; not compared)`);
  if (n.changed > 10) lines.push(`  ... and ${n.changed - 10} more changed (see compare.html)`);
  if (c.conversations) lines.push(...conversationConsoleLines(c.conversations));
  lines.push(...kbCoverageConsoleLines(c));
  for (const f of c.forced) lines.push(`  forced: ${f}`);
  for (const w of compareWarnings(c)) lines.push(`  warning: ${w}`);
  return lines.map(oneLine).join('\n');
}
