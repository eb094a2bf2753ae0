import { ConfigError } from '../errors.js';
import type { QuestionResult } from '../model/report.js';
import { arraySource, type ResultSource } from '../model/source.js';
import { openReport } from '../report/read.js';
import { RecordSource } from '../util/records.js';
import { quote } from '../model/quote.js';

/**
 * The results of every shard, read from the shards' report.json files in dataset order (by their line), one at
 * a time; only where each sits is held (13 bytes a question). A question found in two shards is refused. Reports
 * of another layout than answer-eval's (small ones, read whole) are held in memory.
 */
export async function shardResults(reports: readonly string[]): Promise<ResultSource> {
  if (reports.length > 255) throw new ConfigError(`merge takes at most 255 shards, got ${reports.length}`);
  const sources: ResultSource[] = [];
  for (const path of reports) sources.push((await openReport(path)).results);
  const owner = new Map<string, number>();
  const slots: { line: number; file: number; k: number }[] = [];
  sources.forEach((source, file) => {
    let k = 0;
    for (const r of source) {
      const other = owner.get(r.id);
      if (other !== undefined) throw new ConfigError(`question ${quote(r.id)} is in both ${reports[other]} and ${reports[file]}`);
      owner.set(r.id, file);
      slots.push({ line: r.line, file, k: k++ });
    }
  });
  slots.sort((a, b) => a.line - b.line);
  const onDisk = sources.every((s): s is RecordSource<QuestionResult> => s instanceof RecordSource && s.files === undefined);
  if (!onDisk) {
    const all = sources.map((s) => [...s]);
    return arraySource(slots.map((s) => all[s.file]![s.k]!));
  }
  const offsets = new Float64Array(slots.length);
  const lengths = new Uint32Array(slots.length);
  const files = new Uint8Array(slots.length);
  slots.forEach((s, i) => {
    offsets[i] = sources[s.file]!.offsets[s.k]!;
    lengths[i] = sources[s.file]!.lengths[s.k]!;
    files[i] = s.file;
  });
  return new RecordSource<QuestionResult>(sources.map((s) => s.paths[0]!), offsets, lengths, slots.length, files);
}
