import { join } from 'node:path';
import { JsonLinesFile } from '../util/json-lines-file.js';
import { mkdirs } from '../util/out-dir.js';
import { CHANGES_FILE, type ChangeLine } from './schema.js';

/** Where a comparison puts every listed question, in the order it finds them. */
export interface ChangeSink {
  add(line: ChangeLine): void;
}

/** Every change, re-readable: each iteration is a fresh pass. */
export interface ChangeSource extends Iterable<ChangeLine> {
  readonly count: number;
}

/** The changes in memory: for tests and small comparisons. */
export class ChangeList implements ChangeSink, ChangeSource {
  readonly lines: ChangeLine[] = [];
  get count(): number {
    return this.lines.length;
  }
  add(line: ChangeLine): void {
    this.lines.push(line);
  }
  [Symbol.iterator](): Iterator<ChangeLine> {
    return this.lines[Symbol.iterator]();
  }
}

/**
 * The changes written as they come to a JSONL file (the changes.jsonl format), read again in order by the
 * renderers: memory does not grow with the changes.
 */
export class ChangeFile extends JsonLinesFile<ChangeLine> implements ChangeSink, ChangeSource {}

/**
 * Runs `fn` with a ChangeFile for `dir`/changes.jsonl (the directory made if need be): writeComparison moves it to
 * its name; when `fn` fails, the file is removed.
 */
export async function withChangeFile<T>(dir: string, fn: (changes: ChangeFile) => Promise<T>): Promise<T> {
  await mkdirs(dir);
  const changes = new ChangeFile(join(dir, CHANGES_FILE));
  try {
    return await fn(changes);
  } catch (error) {
    changes.discard();
    throw error;
  }
}
