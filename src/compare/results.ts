import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuestionResult } from '../model/report.js';
import type { ResultSource } from '../model/source.js';
import { RecordSource } from '../util/records.js';

/** A report's results by position (slot): in order, or one by its slot. */
export interface ResultsBySlot {
  /** Slots 0 .. slots - 1; an empty slot has no result. */
  readonly slots: number;
  /** Every result in slot order, with its slot: a fresh pass each time. */
  each(): Generator<{ result: QuestionResult; slot: number }>;
  at(slot: number): QuestionResult | undefined;
  /** Closes the files (and removes a spilled copy). */
  close(): void;
}

/** Results a source without a file behind it may hold in memory; past this they are spilled to a temporary file. */
const IN_MEMORY = 10_000;
const WINDOW = 256 * 1024;
/** A record starting this close after the last one read counts as read in order: the window moves on to it. */
const NEAR = 4096;

/**
 * The results of a report by slot, in bounded memory: a report.json or a journal is read where its records sit
 * (sequential reads through a window when records are asked for nearly in order, one read a record otherwise);
 * a source in memory is kept as is when small, else written once to a temporary JSONL file.
 */
export function bySlot(source: ResultSource): ResultsBySlot {
  if (source instanceof RecordSource) return new FileResults(source.paths, source.offsets, source.lengths, source.files);
  const kept: QuestionResult[] = [];
  let spill: Spill | undefined;
  for (const r of source) {
    if (spill) spill.write(r);
    else if (kept.length < IN_MEMORY) kept.push(r);
    else {
      spill = new Spill();
      for (const k of kept) spill.write(k);
      kept.length = 0;
      spill.write(r);
    }
  }
  return spill ? spill.done() : new MemoryResults(kept);
}

class MemoryResults implements ResultsBySlot {
  constructor(private readonly results: readonly QuestionResult[]) {}
  get slots(): number {
    return this.results.length;
  }
  *each() {
    for (let slot = 0; slot < this.results.length; slot++) yield { result: this.results[slot]!, slot };
  }
  at(slot: number): QuestionResult | undefined {
    return this.results[slot];
  }
  close(): void {}
}

interface Reader {
  fd: number;
  window: Buffer;
  start: number;
  end: number;
  lastEnd: number;
  /** Reused for records read on their own (out of order), so a million reads allocate nothing. */
  scratch: Buffer;
}

class FileResults implements ResultsBySlot {
  private readonly random: Reader[];

  constructor(
    private readonly paths: readonly string[],
    private readonly offsets: Float64Array,
    private readonly lengths: Uint32Array,
    private readonly files?: Uint8Array,
    private readonly onClose: () => void = () => {},
  ) {
    this.random = paths.map(() => reader());
  }

  get slots(): number {
    return this.offsets.length;
  }

  *each() {
    const readers = this.paths.map(() => reader());
    try {
      for (let slot = 0; slot < this.offsets.length; slot++) {
        const result = this.read(readers, slot);
        if (result) yield { result, slot };
      }
    } finally {
      closeAll(readers);
    }
  }

  at(slot: number): QuestionResult | undefined {
    return this.read(this.random, slot);
  }

  close(): void {
    closeAll(this.random);
    this.onClose();
  }

  private read(readers: Reader[], slot: number): QuestionResult | undefined {
    const offset = this.offsets[slot]!;
    if (Number.isNaN(offset)) return undefined;
    const length = this.lengths[slot]!;
    const file = this.files?.[slot] ?? 0;
    const r = readers[file]!;
    if (r.fd < 0) r.fd = openSync(this.paths[file]!, 'r');
    let bytes: Buffer;
    if (offset >= r.start && offset + length <= r.end) bytes = r.window.subarray(offset - r.start, offset - r.start + length);
    else if (length <= WINDOW && offset >= r.lastEnd && offset - r.lastEnd < NEAR) {
      // the window is kept for the reader's life: a buffer freed and taken again per pass is memory the allocator keeps
      if (r.window.length === 0) r.window = Buffer.allocUnsafe(WINDOW);
      r.start = offset;
      r.end = offset + readSync(r.fd, r.window, 0, WINDOW, offset);
      bytes = r.window.subarray(0, length);
    } else {
      if (r.scratch.length < length) r.scratch = Buffer.allocUnsafe(Math.max(length, 8192));
      bytes = r.scratch.subarray(0, readSync(r.fd, r.scratch, 0, length, offset));
    }
    r.lastEnd = offset + length;
    return JSON.parse(bytes.toString('utf8')) as QuestionResult;
  }
}

const reader = (): Reader => ({ fd: -1, window: Buffer.alloc(0), start: 0, end: 0, lastEnd: 0, scratch: Buffer.alloc(0) });

function closeAll(readers: Reader[]): void {
  for (const r of readers) {
    if (r.fd >= 0) closeSync(r.fd);
    r.fd = -1;
    r.start = r.end = r.lastEnd = 0;
  }
}

/** Results written once to a temporary JSONL file, where each sits kept in typed arrays (12 bytes a result). */
class Spill {
  private readonly dir = mkdtempSync(join(tmpdir(), 'answer-eval-compare-'));
  private readonly path = join(this.dir, 'results.jsonl');
  private readonly fd = openSync(this.path, 'w');
  private offsets = new Float64Array(1 << 14);
  private lengths = new Uint32Array(1 << 14);
  private count = 0;
  private at = 0;
  private pending: string[] = [];
  private pendingBytes = 0;

  write(r: QuestionResult): void {
    const line = `${JSON.stringify(r)}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.count === this.offsets.length) {
      const offsets = new Float64Array(this.count * 2);
      offsets.set(this.offsets);
      this.offsets = offsets;
      const lengths = new Uint32Array(this.count * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.offsets[this.count] = this.at;
    this.lengths[this.count++] = bytes - 1;
    this.at += bytes;
    this.pending.push(line);
    this.pendingBytes += bytes;
    if (this.pendingBytes >= 1 << 16) this.flush();
  }

  done(): ResultsBySlot {
    this.flush();
    closeSync(this.fd);
    return new FileResults([this.path], this.offsets.slice(0, this.count), this.lengths.slice(0, this.count), undefined, () => rmSync(this.dir, { recursive: true, force: true }));
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }
}
