import { closeSync, openSync, readSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import type { ReportData, ResultSource } from '../model/source.js';
import { IdHashes } from '../util/id-hashes.js';
import { RecordSource } from '../util/records.js';
import { quote } from '../model/quote.js';

/**
 * What compare checks of each report before it pairs anything: one result per question id (a `--repeat` run keeps
 * its other askings inside that result), and as many results as its own summary counts. A report that fails either
 * was edited or concatenated after the run wrote it, and any verdict on it would depend on which copy came first.
 */

/** Where result `index` of `source` sits: its file and 1-based line, when the source reads a file (a report.json, a journal). */
function placeOf(source: ResultSource, index: number): { path: string; line: number } | undefined {
  if (!(source instanceof RecordSource)) return undefined;
  const offset = source.offsets[index];
  if (offset === undefined || Number.isNaN(offset)) return undefined;
  const path = source.paths[source.files?.[index] ?? 0]!;
  return { path, line: lineAt(path, offset) };
}

/** The 1-based line of byte `offset` of a file: its line breaks before it, counted (only to word an error). */
function lineAt(path: string, offset: number): number {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let line = 1;
    for (let at = 0; at < offset; ) {
      const read = readSync(fd, chunk, 0, Math.min(chunk.length, offset - at), at);
      if (read === 0) break;
      for (let i = chunk.indexOf(10, 0); i >= 0 && i < read; i = chunk.indexOf(10, i + 1)) line++;
      at += read;
    }
    return line;
  } finally {
    closeSync(fd);
  }
}

/** The error for id `id` at results `first` and `second` of `source` (named `file` when it reads no file). */
export function duplicateId(file: string, source: ResultSource, id: string, first: number, second: number): ConfigError {
  const [a, b] = [placeOf(source, first), placeOf(source, second)];
  const at = a && b && a.path === b.path ? `at lines ${a.line} and ${b.line} (results[${first}] and results[${second}])` : `results[${first}] and results[${second}]`;
  return new ConfigError(
    `${a?.path ?? file}: question id ${quote(id)} has more than one result, ${at}: a report holds one result a question (a --repeat run keeps its other askings inside it), ` +
      'so its results were concatenated or edited, and compare cannot tell which one the run measured; compare the report.json the run wrote',
  );
}

/**
 * The ids of a report read once in order (BASE, which compare streams), checked for one given twice: their 53-bit
 * hashes with their indexes (util/id-hashes, as a dataset's ids are checked); only when two hashes are equal is the
 * report read again to compare those ids themselves (a hash collision of two ids is not a duplicate).
 */
export class ReportIds {
  #hashes = new IdHashes();
  #count = 0;

  add(id: string): void {
    this.#hashes.add(id, this.#count++);
  }

  /** Throws duplicateId for the first id `source` holds twice; frees the hashes. */
  check(file: string, source: ResultSource): void {
    const candidates = this.#hashes.collidingLines();
    this.#hashes = new IdHashes();
    if (candidates.size === 0) return;
    const first = new Map<string, number>();
    let index = 0;
    for (const r of source) {
      if (candidates.has(index)) {
        const earlier = first.get(r.id);
        if (earlier !== undefined) throw duplicateId(file, source, r.id, earlier, index);
        first.set(r.id, index);
      }
      index++;
    }
  }
}

/** Refuses a report whose results are not as many as its summary counts (`summary.total`): results removed or added by hand. */
export function checkTotal(file: string, data: ReportData): void {
  const held = data.results.count;
  const total = data.head.summary.total;
  if (held === total) return;
  const path = data.results instanceof RecordSource && data.results.paths.length === 1 ? data.results.paths[0]! : file;
  throw new ConfigError(
    `${path}: holds ${held} results but its summary counts ${total} (summary.total): results were removed from it (or added to it) after the run wrote it, ` +
      'so it no longer says which questions the run measured; compare the report.json the run wrote',
  );
}

/**
 * Both checks on one report, in one pass over its results (and a second only when two ids hash alike): for a report
 * read before it is compared, e.g. `run --baseline`'s, refused before anything is asked rather than after the run.
 */
export function checkReport(file: string, data: ReportData): void {
  const ids = new ReportIds();
  for (const r of data.results) ids.add(r.id);
  ids.check(file, data.results);
  checkTotal(file, data);
}
