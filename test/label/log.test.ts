import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLog, parseLog, readLog, replay, type LogEntry } from '../../src/label/log.js';
import { tempDir } from '../helpers/tmp.js';

// The decision log: appended, read back, replayed into the decisions in force.

const set = { before: 'a', after: 'b' };
const decision = (id: string): LogEntry => ({ v: 1, kind: 'decision', at: 't', id, decision: { kind: 'fallback' }, set });
const undo = (of: number, id: string): LogEntry => ({ v: 1, kind: 'undo', at: 't', of, id, set });

describe('replay', () => {
  it('each undo takes back the last decision in force; an undo of any other, or a damaged line, is ignored', () => {
    expect(replay([decision('q1'), decision('q2'), undo(1, 'q2'), decision('q3')])).toEqual({ active: [0, 3], ignored: [] });
    expect(replay([decision('q1'), decision('q2'), undo(1, 'q2'), undo(0, 'q1')])).toEqual({ active: [], ignored: [] });
    expect(replay([decision('q1'), decision('q2'), undo(0, 'q1'), undefined])).toEqual({ active: [0, 1], ignored: [2, 3] });
  });
});

describe('the file', () => {
  const dir = tempDir('answer-eval-label-log-');

  it('appends entries as lines, read back in order; no log yet is an empty one', async () => {
    const path = join(dir, 'set.csv.labels.jsonl');
    expect(await readLog(path)).toEqual([]);
    await appendLog(path, decision('q1'));
    await appendLog(path, undo(0, 'q1'));
    expect(await readLog(path)).toEqual([decision('q1'), undo(0, 'q1')]);
  });

  it('a last line cut short by a crash stays a line of its own, and the next entry follows it', async () => {
    const path = join(dir, 'torn.labels.jsonl');
    writeFileSync(path, `${JSON.stringify(decision('q1'))}\n{"v":1,"kind":"dec`);
    await appendLog(path, decision('q2'));
    expect(parseLog(readFileSync(path, 'utf8'))).toEqual([decision('q1'), undefined, decision('q2')]);
  });

  it('a link planted in the log’s place is not written through', async () => {
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'untouched\n');
    const path = join(dir, 'linked.labels.jsonl');
    symlinkSync(target, path);
    await expect(appendLog(path, decision('q1'))).rejects.toThrow(/ELOOP/);
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });
});
