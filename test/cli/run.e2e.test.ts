import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';

const SECRET = 'top-SECRET-code-4242';
const dir = tempDir();
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer((req) =>
    req.headers['wikiclone_code'] === SECRET ? { body: { answers: [item(1, 90), item(2, 30)] } } : { status: 404, body: '' },
  );
});
afterAll(() => server.close());

describe('answer-eval run', () => {
  it('writes a valid report.json, prints a summary and exits 0; the secret is in no file or output', async () => {
    const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence,expect\na,pay?,1,\nb,meter?,2,\nc,weather?,,fallback\n');
    const out = join(dir, 'out');
    const res = await runCli(['run', '--dataset', dataset, '--base-url', server.url, '--agent', 'demo', '--out', out, '--format', 'json'], { ANSWER_AGENT_CODE: SECRET });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('top-1 accuracy      33.3%');
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.summary.outcomes).toMatchObject({ correct: 1, wrong: 1, fallback_missed: 1 });
    for (const file of filesUnder(out)) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
  });

  it('prints nothing on stderr at a high concurrency (one abort listener per run, not per request)', async () => {
    const rows = Array.from({ length: 80 }, (_, i) => `q${i},question ${i},1`).join('\n');
    const dataset = writeTemp(dir, 'many.csv', `id,question,expected_sequence\n${rows}\n`);
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-c', '48', '--quiet', '-o', join(dir, 'many'), '--format', 'json'], { ANSWER_AGENT_CODE: SECRET });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('reads the code from --agent-code-file', async () => {
    const dataset = writeTemp(dir, 'one.csv', 'id,question\nq1,hello\n');
    const codeFile = writeTemp(dir, 'code.txt', `${SECRET}\n`);
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--agent-code-file', codeFile, '-o', join(dir, 'out2')]);
    expect(res.code).toBe(0);
  });

  it('exits 3 with a clear message on 404, without the secret', async () => {
    const dataset = writeTemp(dir, 'one.csv', 'id,question,expect\nq1,hello,answer\n');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', join(dir, 'out3')], { ANSWER_AGENT_CODE: 'wrong-code' });
    expect(res.code).toBe(3);
    expect(res.stderr).toBe(`answer-eval: 404 from ${server.url}/api/v1/answer: agent "demo" is not authorized - check --agent and ANSWER_AGENT_CODE\n`);
    expect(res.stdout + res.stderr).not.toContain('wrong-code');
  });

  it('exits 2 on a bad dataset, listing every bad row, with no stack trace', async () => {
    const dataset = writeTemp(dir, 'bad.csv', 'id,question\n1,\n2,ok\n2,again\n');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo'], { ANSWER_AGENT_CODE: SECRET });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `answer-eval: ${dataset}:2: column "question" is empty (every row needs the question text)\n${dataset}:4: id "2" is already used at line 3 (ids must be unique)\n`,
    );
    expect(server.received.filter((r) => JSON.stringify(r.body).includes('again'))).toHaveLength(0);
  });

  it('exits 2 on a usage error and when the agent code is missing', async () => {
    const dataset = writeTemp(dir, 'one.csv', 'id,question\nq1,hello\n');
    const noCode = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo']);
    expect(noCode.code).toBe(2);
    expect(noCode.stderr).toBe('answer-eval: no agent code: set ANSWER_AGENT_CODE or --agent-code-file FILE\n');
    const badFlag = await runCli(['run', '-d', dataset, '--concurrency', '0', '--base-url', server.url, '--agent', 'x']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--concurrency must be a whole number >= 1, got 0');
    expect(badFlag.stderr).not.toMatch(/\n\s+at /);
  });
});
