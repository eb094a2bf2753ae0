import { mkdirSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { checkQuestions, itemsOf } from '../../src/dataset/read.js';
import { openDataset } from '../../src/dataset/source.js';
import { readJournal } from '../../src/run/journal-read.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A reader stopped early (a run stopped by Ctrl-C or the circuit breaker abandons the dataset stream) must close
// its file at once: a FileHandle left to the garbage collector makes Node print DEP0137 to the user.
const dir = tempDir();
const openFiles = (): number => readdirSync('/proc/self/fd').length;
/** How many descriptors this process holds on `path`. */
const openOn = (path: string): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed meanwhile (or the descriptor of the listing itself)
    }
  }).length;
/** Until this process holds nothing open on `path`: a stream's close completes a moment after it is destroyed (never a leaked handle, which only the garbage collector would close). */
const closedOn = (path: string): Promise<void> => expect.poll(() => openOn(path), { timeout: 2_000, interval: 5 }).toBe(0);
const ROWS = 5000; // several stream chunks, so the file is still being read when the reader stops

describe.runIf(process.platform === 'linux')('file handles are closed when a reader stops early', () => {
  const csv = writeTemp(dir, 'big.csv', `id,question\n${Array.from({ length: ROWS }, (_, i) => `q${i},how do I pay bill number ${i} with padding text`).join('\n')}\n`);
  const jsonl = writeTemp(dir, 'big.jsonl', `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ id: `q${i}`, question: `how do I pay bill ${i} with padding` })).join('\n')}\n`);

  for (const path of [csv, jsonl]) {
    it(`itemsOf (${path.endsWith('.csv') ? 'CSV' : 'JSONL'}): a loop that breaks`, async () => {
      const source = await openDataset(path);
      await checkQuestions(source, () => {});
      await closedOn(path);
      const before = openFiles();
      let n = 0;
      for await (const _ of itemsOf(source)) if (++n === 3) break;
      await closedOn(path);
      expect(openFiles()).toBe(before);
      await source.close();
    });
  }

  it('a journal reader that meets a damaged header', async () => {
    // a damaged result line is dropped (the reader goes on); a damaged header stops it
    const lines = [JSON.stringify({ journal: 2, run: '0123456789abcdef', tool: { name: 'answer-eval', version: '0' }, dataset: {}, request: {} })];
    for (let i = 0; i < ROWS; i++) lines.push(i === 10 ? '{damaged' : JSON.stringify({ id: `q${i}`, outcome: 'correct', line: i + 2, padding: 'x'.repeat(40) }));
    const out = join(dir, 'journal');
    mkdirSync(out);
    const path = writeTemp(out, 'journal.jsonl', `${lines.join('\n')}\n`);
    await closedOn(path);
    const before = openFiles();
    await expect(readJournal(out)).rejects.toBeInstanceOf(InputError);
    await closedOn(path);
    expect(openFiles()).toBe(before);
  });
});
