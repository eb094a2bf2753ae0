import { join } from 'node:path';
import { reportHtmlLink } from '../report/links.js';
import { writeFiles } from '../report/write.js';
import { landed } from '../util/out-dir.js';
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
 * compare.json lists. `publishedIn`: where `dir`'s files will be moved once written (an --overwrite run's staging
 * directory is published over the earlier run): compare.json names the head's report.json, and compare.html links
 * both runs' report.html, as they will be found there; a base run in that very directory is being replaced, so it is
 * not linked.
 */
export async function writeComparison(c: Comparison, dir: string, changes: ChangeSource = listedChanges(c), o: { publishedIn?: string } = {}): Promise<string[]> {
  const path = join(dir, CHANGES_FILE);
  const found = changes instanceof ChangeFile && changes.path === path; // written as they were found: moved into place
  const to = o.publishedIn ?? dir;
  const moved = landed(dir, to);
  const base = reportHtmlLink(c.base.file, to);
  // a base whose report.html is the one this run is published over is replaced by it: named, not linked
  const reports = { base: to !== dir && base === 'report.html' ? undefined : base, head: reportHtmlLink(c.head.file, to, moved) };
  c = { ...c, head: { ...c.head, file: moved(c.head.file) } };
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
