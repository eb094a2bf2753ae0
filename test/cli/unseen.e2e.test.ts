import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A remote service's labels are known only from its answers: a misspelt expected_label makes its questions "wrong"
// when the service was right, and a dataset naming answers otherwise than the service makes every one wrong. run and
// rescore say so on stderr, naming the dataset line; the figures and the exit code are those of the run.

const dir = tempDir('answer-eval-unseen-');
const env = { ANSWER_AGENT_CODE: 'code' };
let server: SpecServer;
let withLabels = true;

beforeAll(async () => {
  server = await startSpecServer((req) => {
    const text = (req.body['question'] as { text: string }).text;
    const seq = Number(/\d+/.exec(text)?.[0] ?? 9);
    const top = item(seq, 90, withLabels ? { label: `entry_${seq}` } : {});
    if (!withLabels) delete top['label'];
    return { body: { answers: [top] } };
  });
});
afterAll(() => server.close());

const set = (labels: string[]) => writeTemp(dir, `${labels.join('-')}.csv`, `id,question,expected_label\n${labels.map((l, i) => `q${i + 1},question ${i + 1},${l}`).join('\n')}\n`);
const run = (dataset: string, out: string) => runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--retries', '0', '-o', join(dir, out), '--quiet'], env);
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('answer-eval: warning:'));

describe('expected labels no answer carried', () => {
  it('a misspelt label is named with the label the service gave, at its line; a right set says nothing', async () => {
    const right = set(['entry_1', 'entry_2', 'entry_3']);
    const ok = await run(right, 'right');
    expect(ok.code, ok.stderr).toBe(0);
    expect(warnings(ok.stderr)).toEqual([]);

    const typo = set(['entry_1', 'entyr_2', 'entry_3']);
    const r = await run(typo, 'typo');
    expect(r.code, r.stderr).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      `answer-eval: warning: ${typo}:3: expected_label "entyr_2" (question q2) is the label of no answer the service gave; it gave "entry_2": a typo in the dataset? (its questions count as wrong)`,
    ]);

    // judged again against the corrected set: nothing left to say; against the misspelt one: the same note
    const fixed = await runCli(['rescore', join(dir, 'typo'), '--out', join(dir, 'fixed'), '-d', right]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(warnings(fixed.stderr)).toEqual([]);
    const again = await runCli(['rescore', join(dir, 'right'), '--out', join(dir, 'again'), '-d', typo]);
    expect(warnings(again.stderr)).toEqual([`answer-eval: warning: ${typo}:3: expected_label "entyr_2" (question q2) is the label of no answer the service gave; it gave "entry_2": a typo in the dataset? (its questions count as wrong)`]);
  });

  it('a service whose answers carry no label: every question expecting one fails, and the run says why', async () => {
    withLabels = false;
    try {
      const dataset = set(['entry_4', 'entry_5']);
      const r = await run(dataset, 'no-labels');
      expect(r.code, r.stderr).toBe(0);
      expect(warnings(r.stderr)).toEqual([
        `answer-eval: warning: ${dataset}: expected_label: none of the 2 value(s) the dataset expects is the label of any answer the service gave in this run (its answers carry no label at all): if the dataset names answers otherwise than the service, every question expecting one fails`,
      ]);
    } finally {
      withLabels = true;
    }
  });
});
