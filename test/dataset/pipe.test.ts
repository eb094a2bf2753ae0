import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanDataset } from '../../src/dataset/read.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { fifoOf, tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
let server: SpecServer | undefined;
afterAll(() => server?.close());

describe('a dataset readable only once (a FIFO)', () => {
  it('is read once into a temporary copy: every question is asked, the sha256 is the content\'s, the copy is gone after', async () => {
    server = await startSpecServer(() => ({ body: { answers: [item(1, 90)] } }));
    const content = 'id,question,expected_sequence\nq1,first,1\nq2,second,1\nq3,third,2\n';
    const fifo = fifoOf(dir, writeTemp(dir, 'ds.csv', content), 'csv-pipe');
    // a temp dir of its own, so copies made by other tests do not count
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    const was = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
    let during: string[] = [];
    const { report, stoppedBy } = await runEvaluation({ dataset: fifo, baseUrl: server.url, agent: 'a', agentCode: 'c', onEvent: (e) => {
      if (e.type === 'start') during = readdirSync(tmp);
    } }).finally(() => (was === undefined ? delete process.env['TMPDIR'] : (process.env['TMPDIR'] = was)));
    expect(during).toEqual([expect.stringMatching(/^answer-eval-dataset-/)]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(stoppedBy).toBeUndefined();
    expect(report.run.status).toBe('completed');
    expect(report.results.map((r) => r.id)).toEqual(['q1', 'q2', 'q3']);
    expect(server.received).toHaveLength(3);
    expect(report.run.dataset).toEqual({ path: fifo, sha256: createHash('sha256').update(content).digest('hex'), questions: 3 });
  });

  it('tells JSONL from CSV by its first character when the name has no extension', async () => {
    const fifo = fifoOf(dir, writeTemp(dir, 'ds.jsonl', '{"id":"j1","question":"from a pipe"}\n'), 'jsonl-pipe');
    const scan = await scanDataset(fifo);
    expect(scan.problems).toEqual([]);
    expect(scan.questions.map((q) => q.question)).toEqual(['from a pipe']);
  });

  it('is read as often as validate needs (a repeated id takes a second pass)', async () => {
    const fifo = fifoOf(dir, writeTemp(dir, 'dup.csv', 'id,question\na,one\nb,two\na,three\n'), 'dup-pipe');
    const scan = await scanDataset(fifo);
    expect(scan.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([`${fifo}:4: id "a" is already used at line 2 (ids must be unique)`]);
  });
});
