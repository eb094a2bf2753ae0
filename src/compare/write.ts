import { join } from 'node:path';
import { reportHtmlLink } from '../report/links.js';
import { writeFiles } from '../report/write.js';
import { ChangeFile, ChangeList, type ChangeSource } from './changes.js';
import { CONVERSATION_LISTS, conversationLineClass } from './conversations.js';
import { COMPARE_FORMATS, type CompareFormat } from './render/index.js';
import { CHANGES_FILE, type ChangeLine, type Comparison } from './schema.js';

/** The changes compare.json lists: all of them when no list reached its limit. */
export function listedChanges(c: Comparison): ChangeList {
  const list = new ChangeList();
  for (const [cls, items] of Object.entries(c.questions)) for (const item of items) list.add({ class: cls, ...item } as ChangeLine);
  for (const name of CONVERSATION_LISTS) for (const item of c.conversations?.[name] ?? []) list.add({ class: conversationLineClass(name), ...item } as ChangeLine);
  return list;
}

/**
 * Writes compare.json, compare.html, compare.md and changes.jsonl into `dir` (each through a temporary file, so a
 * reader never sees half of one). `changes` are every change the comparison found: a ChangeFile (written as they
 * were found, in `dir`) is moved to changes.jsonl; other sources are written out. Without it, the changes
 * compare.json lists. `linksFrom`: the directory compare.html will be read from, when not `dir` (a staging directory).
 */
export async function writeComparison(c: Comparison, dir: string, changes: ChangeSource = listedChanges(c), o: { linksFrom?: string } = {}): Promise<string[]> {
  const path = join(dir, CHANGES_FILE);
  const found = changes instanceof ChangeFile && changes.path === path; // written as they were found: moved into place
  // compare.html links both runs' report.html, from where it will be read
  const from = o.linksFrom ?? dir;
  const reports = { base: reportHtmlLink(c.base.file, from), head: reportHtmlLink(c.head.file, from) };
  const files = (Object.keys(COMPARE_FORMATS) as CompareFormat[]).map((format) => ({ file: COMPARE_FORMATS[format].file, chunks: () => COMPARE_FORMATS[format].render(c, changes, { reports }) }));
  if (!found) files.push({ file: CHANGES_FILE, chunks: () => changeLines(changes) });
  const written = await writeFiles(dir, files);
  if (found) {
    changes.commit();
    written.push(path);
  }
  return written;
}

function* changeLines(changes: ChangeSource): Generator<string> {
  for (const line of changes) yield `${JSON.stringify(line)}\n`;
}
