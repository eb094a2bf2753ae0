import type { Coverage, CoverageRef } from '../model/coverage.js';
import { pct } from './describe.js';

// The knowledge base's coverage in words, the same on the console, in summary.md and in report.html.

/** The file name of the knowledge base (the path, often absolute, is in report.json). */
export const kbName = (c: Coverage): string => c.knowledgeBase.split(/[\\/]/).filter(Boolean).at(-1) ?? c.knowledgeBase;

/** `60 of the 81 entries of kb.jsonl tested`. */
export const testedText = (c: Coverage, name: string = kbName(c)): string => `${c.tested} of the ${c.entries} entries of ${name} tested`;

/** `untested 21 · never top-1 23 · reached only below the floor 0`. */
export const listCounts = (c: Coverage, sep = ' · '): string =>
  [`untested ${c.untested.length}`, `never top-1 ${c.neverTop1.length}`, `reached only below the floor ${c.belowFloorOnly.length}`].join(sep);

/** An entry in a line of names: `30 submit_reading`, or `30 "Submitting a reading"` without a label. */
export const entryName = (e: CoverageRef): string => `${e.sequence} ${e.label ?? `"${e.title}"`}`;

/** The first `max` entries by name, then `and N more`: `30 submit_reading, 31 read_meter and 4 more`. */
export function firstEntries(list: readonly CoverageRef[], max: number, name: (e: CoverageRef) => string = entryName): string {
  const shown = list.slice(0, max).map(name).join(', ');
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/** What each list means, as the reports say it. */
export const LIST_MEANINGS = {
  untested: 'no answerable question expects them: they can break unnoticed',
  neverTop1: 'no question got them as its top-1 answer in this run',
  belowFloorOnly: 'returned, but only below the floor: never given as an answer',
} as const;

/** Entries that only a conversation can test (dialogue-only follow-ups) among the untested: said beside the list. */
export const dialogueOnlyNote = (c: Coverage): string => {
  const n = c.untested.filter((e) => e.dialogueOnly).length;
  return n === 0 ? '' : `${n} of them ${n === 1 ? 'is' : 'are'} reachable only inside a dialogue: a conversation's turn tests ${n === 1 ? 'it' : 'them'}`;
};

/** The console lines: the figure, then the first untested entries (one line, bounded). */
export function coverageConsoleLines(c: Coverage | undefined): string[] {
  if (!c) return [];
  const lines = [`  ${'KB coverage'.padEnd(19)} ${pct(c.share)} (${testedText(c)}): ${listCounts(c, ', ')}`];
  if (c.untested.length > 0) lines.push(`  ${'untested entries'.padEnd(19)} ${firstEntries(c.untested, 5)}`);
  return lines;
}

/** summary.md: the coverage line and the untested entries (first 20, then how many more), with the other two lists named. */
export function coverageMarkdown(c: Coverage | undefined, md: (text: unknown, max?: number) => string): string[] {
  if (!c) return [];
  const lines = ['', `Knowledge-base coverage **${pct(c.share)}** (${testedText(c, md(kbName(c), 60))}) · ${listCounts(c)}`];
  if (c.untested.length > 0) {
    const note = dialogueOnlyNote(c);
    lines.push('', `<details><summary>${c.untested.length} untested entries: ${LIST_MEANINGS.untested}</summary>`, '', ...(note ? [`${note}.`, ''] : []), '| sequence | label | title |', '|---:|---|---|');
    for (const e of c.untested.slice(0, 20)) lines.push(`| ${e.sequence} | ${md(e.label ?? '', 40)} | ${md(e.title, 80)}${e.dialogueOnly ? ' (dialogue only)' : ''} |`);
    if (c.untested.length > 20) lines.push(`| | and ${c.untested.length - 20} more | report.json lists every one |`);
    lines.push('', '</details>');
  }
  const named = (list: readonly CoverageRef[]) => firstEntries(list, 10, (e) => md(entryName(e), 60));
  if (c.neverTop1.length > 0) lines.push('', `Never top-1 (${LIST_MEANINGS.neverTop1}): ${named(c.neverTop1)}.`);
  if (c.belowFloorOnly.length > 0) lines.push('', `Reached only below the floor (${LIST_MEANINGS.belowFloorOnly}): ${named(c.belowFloorOnly)}.`);
  return lines;
}
