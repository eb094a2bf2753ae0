import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalHeader } from '../../src/run/journal.js';
import { journalPath, journalTail, JournalWriter } from '../../src/run/journal.js';
import { tempDir } from '../helpers/tmp.js';

// The journal writer encodes each line straight into its batch buffer and writes batches one at a time: every
// offset and length it returns must be where the line's bytes sit, whatever the characters, the line's length
// against a batch (256 KiB) and the tail put in place of the closing brace.

const dir = tempDir('answer-eval-journal-writer-');
const header = { journal: 2, run: '0123456789abcdef', startedAt: '2026-11-28T00:00:00.000Z' } as unknown as JournalHeader;

describe('JournalWriter', () => {
  it('returns the offset and byte length of each line, across batches, multi-byte text and lines longer than a batch', async () => {
    const out = join(dir, 'many');
    const errors: Error[] = [];
    const writer = await JournalWriter.create(out, header, (e) => errors.push(e));
    const lines: string[] = [];
    const at: { offset: number; length: number }[] = [];
    for (let i = 0; i < 3000; i++) {
      const text = i % 3 === 0 ? `é ${'x'.repeat(i)}` : i % 3 === 1 ? `💡 ${'ü'.repeat(i % 200)}` : `line ${i} \ud800 lone`;
      const json = JSON.stringify({ id: `q${i}`, text });
      const tail = journalTail('0123456789abcdef', i % 4);
      lines.push(`${json.slice(0, -1)}${tail}`);
      at.push(writer.append(json, tail));
    }
    const long = JSON.stringify({ id: 'long', text: 'ä'.repeat(300_000) });
    lines.push(long);
    at.push(writer.append(long));
    lines.push('{"id":"after"}');
    at.push(writer.append('{"id":"after"}'));
    await writer.close();
    expect(errors).toEqual([]);

    const bytes = readFileSync(journalPath(out));
    const text = bytes.toString('utf8').split('\n');
    expect(JSON.parse(text[0]!)).toEqual(header);
    expect(text.slice(1, -1)).toEqual(lines.map((l) => Buffer.from(l).toString('utf8')));
    lines.forEach((line, i) => {
      const { offset, length } = at[i]!;
      expect(bytes.subarray(offset, offset + length).toString('utf8')).toBe(Buffer.from(line).toString('utf8'));
      expect(bytes[offset + length]).toBe(0x0a);
    });
    expect(at.at(-1)!.offset + at.at(-1)!.length + 1).toBe(bytes.length);
  });

  it('resumes after the last whole line, where the offsets go on', async () => {
    const out = join(dir, 'resumed');
    const first = await JournalWriter.create(out, header, () => {});
    first.append('{"id":"a"}');
    await first.close();
    const size = readFileSync(journalPath(out)).length;
    const second = await JournalWriter.resume(out, size, () => {});
    const at = second.append('{"id":"b"}', ',"run":"r"}');
    await second.close();
    const bytes = readFileSync(journalPath(out));
    expect(at).toEqual({ offset: size, length: '{"id":"b","run":"r"}'.length });
    expect(bytes.subarray(size).toString()).toBe('{"id":"b","run":"r"}\n');
  });
});
