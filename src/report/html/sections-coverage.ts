import type { Coverage, CoverageEntry, CoverageRef } from '../../model/coverage.js';
import { dialogueOnlyNote, LIST_MEANINGS, testedText } from '../coverage.js';
import { pct } from '../describe.js';
import { escapeHtml as h } from '../escape.js';
import type { PageContext } from './page.js';

/** Rows each list shows at most; report.json lists every entry. */
export const MAX_COVERAGE_ROWS = 200;

const LISTS = [
  ['untested', 'Untested entries'],
  ['neverTop1', 'Never top-1'],
  ['belowFloorOnly', 'Reached only below the floor'],
] as const;

function row(e: CoverageRef, counts: CoverageEntry | undefined): string {
  const dialogue = e.dialogueOnly ? ' <span class="hint">(dialogue only)</span>' : '';
  const num = (v: number | undefined) => `<td class="num">${v ?? ''}</td>`;
  return `<tr><td class="num">${e.sequence}</td><td>${h(e.label ?? '')}</td><td>${h(e.title)}${dialogue}</td>${num(counts?.questions)}${num(counts?.returned)}${num(counts?.belowFloor)}</tr>`;
}

/** One list as a table (the first MAX_COVERAGE_ROWS), or a line saying it is empty. */
function listTable(id: string, title: string, meaning: string, list: readonly CoverageRef[], bySequence: Map<number, CoverageEntry>, note = ''): string {
  if (list.length === 0) return `<p class="hint" id="${id}">${h(title)}: none.</p>`;
  const shown = list.slice(0, MAX_COVERAGE_ROWS);
  const more = list.length > shown.length ? `<tr><td colspan="6" class="hint">… and ${list.length - shown.length} more: report.json lists every one</td></tr>` : '';
  const head = '<th class="num">sequence</th><th>label</th><th>title</th><th class="num" title="answerable questions that expect it">questions</th><th class="num" title="questions that returned it at or above the floor">returned</th><th class="num" title="questions that returned it below the floor">below floor</th>';
  // the title above the table, not in a caption: a caption as wide as the table scrolls out of a narrow screen
  return `<p class="list-head" id="${id}-head"><b>${h(title)} · ${list.length}</b>: ${h(meaning)}${note ? `. ${h(note)}` : ''}.</p><div class="table-wrap"><table class="slices coverage" id="${id}" aria-label="${h(title)}"><thead><tr>${head}</tr></thead><tbody>${shown.map((e) => row(e, bySequence.get(e.sequence))).join('')}${more}</tbody></table></div>`;
}

/** Where the floor is, in words: the service's floor answer, and the threshold when the run knows one. */
const floorWords = (c: Coverage): string =>
  `below the floor: listed after the service's floor answer${c.floor === null ? '' : `, or scoring under ${c.floor}`}`;

/** The knowledge base's coverage by the question set: the figure, then its three lists (the tested entries never top-1 first). */
export function coverageSection({ report }: PageContext): string {
  const c = report.coverage!;
  const bySequence = new Map(c.byEntry.map((e) => [e.sequence, e]));
  // a tested entry that is never the answer matters more than an untested one: first
  const neverTop1 = [...c.neverTop1].sort((a, b) => (bySequence.get(b.sequence)?.questions ?? 0) - (bySequence.get(a.sequence)?.questions ?? 0));
  const lists = { untested: c.untested, neverTop1, belowFloorOnly: c.belowFloorOnly };
  const intro = `<p class="hint"><b>${pct(c.share)}</b>: ${h(testedText(c))}. An entry is tested when at least one answerable question expects it (by its sequence number or its label); ${h(floorWords(c))}.</p>`;
  const tested = neverTop1.filter((e) => (bySequence.get(e.sequence)?.questions ?? 0) > 0).length;
  const notes = { untested: dialogueOnlyNote(c), neverTop1: tested === 0 ? '' : `${tested} of them tested, listed first: the questions that expect them got another answer`, belowFloorOnly: '' };
  return intro + LISTS.map(([key, title]) => listTable(`coverage-${key}`, title, LIST_MEANINGS[key], lists[key], bySequence, notes[key])).join('\n');
}
