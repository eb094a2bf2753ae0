import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkQuestions, checkUnchanged } from '../../src/dataset/read.js';
import { openDataset } from '../../src/dataset/source.js';
import { DatasetChangedError } from '../../src/errors.js';
import type { RunEvent } from '../../src/run/progress.js';
import { runEvaluation } from '../../src/run/run.js';
import { setLimitsForTests } from '../helpers/limits.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
let server: SpecServer;
afterAll(() => server?.close());

// ~100 bytes a row, so the file spans several of the 64 KiB blocks the asking pass checks
const rows = (n: number, word: string): string =>
  `id,question,expected_sequence\n${Array.from({ length: n }, (_, i) => `q${i},${word} question number ${String(i).padStart(5, '0')} ${'x'.repeat(60)},1\n`).join('')}`;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const asked = (): string[] => server.received.map((r) => (r.body['question'] as { text: string }).text);
const journalResults = (out: string): number => readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{"id"')).length;

// 1 MB: far more than the asking pass reads ahead of the questions it hands on (a page of 1,024 rows, 100 kB here)
async function run(name: string, onEvent: (event: RunEvent, path: string) => void, n = 10_000) {
  server ??= await startSpecServer(() => ({ body: { answers: [item(1, 90)] } }));
  server.received.length = 0;
  const original = rows(n, 'old');
  const dataset = writeTemp(dir, `${name}.csv`, original);
  const out = join(dir, name);
  const warnings: string[] = [];
  const outcome = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', concurrency: 4, journalDir: out, onEvent: (e) => onEvent(e, dataset), onWarning: (w) => warnings.push(w) });
  return { outcome, original, out, warnings };
}

describe('a dataset too large to keep, rewritten during a run', () => {
  // what the check read is kept in memory when it fits (src/run/check.ts): these sets are read again while asked
  let restore: () => void;
  beforeEach(() => void (restore = setLimitsForTests({ keptItemsBytes: 0 })));
  afterEach(() => restore());

  it('rewritten in place while asking (same size): stops at the first changed block, sends nothing of the new text, keeps what was asked', async () => {
    let results = 0;
    const { outcome, original, out } = await run('rewrite', (e, path) => {
      if (e.type === 'result' && ++results === 20) writeFileSync(path, rows(10_000, 'NEW'));
    });
    expect(outcome.stoppedBy).toBeInstanceOf(DatasetChangedError);
    expect((outcome.stoppedBy as DatasetChangedError).exitCode).toBe(3);
    expect(outcome.stoppedBy!.message).toMatch(
      /rewrite\.csv changed while its questions were being asked \(bytes \d+-\d+ differ from what was checked\): the run stopped, and nothing of the change was asked\. The questions asked before it came from the file as it was checked \(sha256 [0-9a-f]{64}\) and are kept in /,
    );
    expect(outcome.stoppedBy!.message).toContain(`${join(out, 'journal.jsonl')}. --resume refuses a changed dataset (its sha256 differs): put the checked version back and run answer-eval run --resume ${out} to finish this run`);
    expect(asked().length).toBeGreaterThanOrEqual(20);
    expect(asked().length).toBeLessThan(5000);
    expect(asked().filter((q) => !q.startsWith('old '))).toEqual([]);
    const { report } = outcome;
    expect(report.run.status).toBe('partial');
    expect(report.run.dataset.sha256).toBe(sha256(original));
    expect(report.results.every((r) => r.question.startsWith('old '))).toBe(true);
    expect(journalResults(out)).toBe(report.results.length);
  });

  it('grown while asking: stops before any appended question is sent', async () => {
    let results = 0;
    const { outcome } = await run('append', (e, path) => {
      if (e.type === 'result' && ++results === 20) appendFileSync(path, 'extra1,appended question,1\n');
    }, 4000); // 400 kB: twice what is read ahead at the 20th result, and every question is asked before the end is seen
    expect(outcome.stoppedBy).toBeInstanceOf(DatasetChangedError);
    expect(outcome.stoppedBy!.message).toMatch(/changed while its questions were being asked \((size \d+ → \d+ bytes|it now holds more than the \d+ bytes checked)/);
    expect(asked()).not.toContain('appended question');
  });

  it('rewritten after the check, before the asking pass opened it: nothing is sent', async () => {
    const { outcome } = await run('between', (e, path) => {
      if (e.type === 'start') writeFileSync(path, rows(10, 'NEW'));
    });
    expect(outcome.stoppedBy).toBeInstanceOf(DatasetChangedError);
    expect(outcome.stoppedBy!.message).toMatch(/between\.csv changed while its questions were being asked \(size \d+ → \d+ bytes/);
    expect(server.received).toHaveLength(0);
    expect(outcome.report.results).toHaveLength(0);
  });

});

describe('a dataset kept from its check', () => {
  it('rewritten while asking: the run asks every question as checked, the file is not read again, and says so', async () => {
    let results = 0;
    const { outcome, original, out, warnings } = await run('kept', (e, path) => {
      if (e.type === 'result' && ++results === 20) writeFileSync(path, rows(100, 'NEW'));
    }, 1000);
    expect(warnings.filter((w) => w.includes('changed'))).toEqual([
      expect.stringMatching(
        new RegExp(`kept\\.csv changed while its questions were being asked \\(size \\d+ → \\d+ bytes.*\\): they were asked as the file was checked \\(sha256 ${sha256(original)}\\), which the reports describe; run again to measure the new version$`),
      ),
    ]);
    expect(outcome.stoppedBy).toBeUndefined();
    expect(outcome.report.run.status).toBe('completed');
    expect(asked()).toHaveLength(1000);
    expect(asked().filter((q) => !q.startsWith('old '))).toEqual([]);
    expect(outcome.report.run.dataset.sha256).toBe(sha256(original));
    expect(journalResults(out)).toBe(1000);
  });
});

describe('a dataset left alone', () => {
  it('kept and unchanged: nothing is said of it', async () => {
    const { outcome, warnings } = await run('alone', () => {}, 50);
    expect(outcome.report.run.status).toBe('completed');
    expect(warnings.filter((w) => w.includes('changed'))).toEqual([]);
  });
});

describe('a dataset changed before the asking', () => {
  it('refused with exit 2 before anything is sent when the file changed during or right after the check pass', async () => {
    const path = writeTemp(dir, 'check.csv', rows(50, 'old'));
    const during = await openDataset(path);
    let appended = false;
    const error = await checkQuestions(during, () => {
      if (!appended) appendFileSync(path, 'late,one more,1\n');
      appended = true;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetChangedError);
    expect((error as DatasetChangedError).exitCode).toBe(2);
    expect((error as Error).message).toMatch(/check\.csv changed while it was being checked \(size \d+ → \d+ bytes.*\): nothing was sent/);

    const after = await openDataset(path);
    await checkQuestions(after, () => {});
    writeFileSync(path, rows(50, 'new'));
    await expect(checkUnchanged(after)).rejects.toThrow(/check\.csv changed after it was checked, before anything was sent \(.*modified .*\)/);
  });
});
