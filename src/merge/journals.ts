import { ConfigError } from '../errors.js';
import type { ResultSource } from '../model/source.js';
import { JournalSource, journalPath, readJournal } from '../run/journal.js';

/**
 * The results of every shard, read back from the shards' journals in dataset order (by their line), one at
 * a time; only where each line sits is held. A question found in two shards is refused.
 */
export async function shardResults(dirs: readonly string[]): Promise<ResultSource> {
  if (dirs.length > 255) throw new ConfigError(`merge takes at most 255 shards, got ${dirs.length}`);
  const journals = await Promise.all(dirs.map((dir) => readJournal(dir)));
  const owner = new Map<string, number>();
  const slots: { line: number; file: number; offset: number; length: number }[] = [];
  journals.forEach((journal, file) => {
    for (const [id, entry] of journal.results) {
      const other = owner.get(id);
      if (other !== undefined) throw new ConfigError(`question "${id}" is in the journals of both ${dirs[other]} and ${dirs[file]}`);
      owner.set(id, file);
      slots.push({ line: entry.line, file, offset: entry.offset, length: entry.length });
    }
  });
  slots.sort((a, b) => a.line - b.line);
  const offsets = new Float64Array(slots.length);
  const lengths = new Uint32Array(slots.length);
  const files = new Uint8Array(slots.length);
  slots.forEach((s, i) => {
    offsets[i] = s.offset;
    lengths[i] = s.length;
    files[i] = s.file;
  });
  return new JournalSource(dirs.map(journalPath), offsets, lengths, slots.length, files);
}
