import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChangeFile, withChangeFile } from '../../src/compare/changes.js';
import type { ChangeLine } from '../../src/compare/schema.js';
import { tempDir } from '../helpers/tmp.js';

const line = (i: number, question = `question ${i} — ✓ ünïcode`): ChangeLine => ({ class: 'added', id: `q${i}`, question, tags: [], category: 'c', outcome: 'correct' });

describe('ChangeFile', () => {
  it('writes one change a line and reads them back in order, every pass, lines longer than its buffers too', () => {
    const dir = tempDir();
    const file = new ChangeFile(join(dir, 'changes.jsonl'));
    const lines = Array.from({ length: 5000 }, (_, i) => line(i, i === 1234 ? 'x'.repeat(200_000) : i === 2000 ? '€'.repeat(30_000) : undefined));
    for (const l of lines) file.add(l);
    expect(file.count).toBe(5000);
    expect([...file]).toEqual(lines);
    expect([...file]).toEqual(lines); // a fresh pass
    file.commit();
    expect(existsSync(join(dir, 'changes.jsonl.tmp'))).toBe(false);
    expect(readFileSync(join(dir, 'changes.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as ChangeLine)).toEqual(lines);
    expect([...file]).toEqual(lines); // read from its name once committed
    file.discard(); // a committed file stays
    expect(existsSync(join(dir, 'changes.jsonl'))).toBe(true);
  });

  it('leaves nothing behind when the comparison fails', async () => {
    const dir = join(tempDir(), 'out');
    await expect(
      withChangeFile(dir, async (changes) => {
        changes.add(line(1));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(existsSync(join(dir, 'changes.jsonl.tmp'))).toBe(false);
    expect(existsSync(join(dir, 'changes.jsonl'))).toBe(false);
  });
});
