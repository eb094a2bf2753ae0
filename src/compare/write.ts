import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { writeChunks } from '../report/write.js';
import { ChangeFile, ChangeList, type ChangeSource } from './changes.js';
import { CONVERSATION_LISTS, conversationLineClass } from './conversations.js';
import { COMPARE_FORMATS, type CompareFormat } from './render/index.js';
import { mkdirs } from '../util/out-dir.js';
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
 * compare.json lists.
 */
export async function writeComparison(c: Comparison, dir: string, changes: ChangeSource = listedChanges(c)): Promise<string[]> {
  await mkdirs(dir);
  const written: string[] = [];
  for (const format of Object.keys(COMPARE_FORMATS) as CompareFormat[]) {
    const { file, render } = COMPARE_FORMATS[format];
    const path = join(dir, file);
    await writeChunks(`${path}.tmp`, render(c, changes));
    await rename(`${path}.tmp`, path);
    written.push(path);
  }
  const path = join(dir, CHANGES_FILE);
  if (changes instanceof ChangeFile && changes.path === path) changes.commit();
  else {
    await writeChunks(`${path}.tmp`, (function* () {
      for (const line of changes) yield `${JSON.stringify(line)}\n`;
    })());
    await rename(`${path}.tmp`, path);
  }
  written.push(path);
  return written;
}
