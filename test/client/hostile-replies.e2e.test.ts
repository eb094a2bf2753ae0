import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { faultDataset, healthyOutcome, answeredSequence } from '../helpers/fault-server.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// One bad reply cannot stop a run: a 200 whose answers hold a structure 5,000 deep (ten kilobytes) used to
// overflow the stack when the result was journaled, and again at the same question on every --resume; a
// 900 KB field used to give a 900 KB error message.

const dir = tempDir('answer-eval-hostile-');
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const okBody = (n: number) => ({ answers: [item(answeredSequence(n), 90), item(9, 10)] });
const withField = (n: number, field: string, raw: string) => JSON.stringify(okBody(n)).replace(/\}\]\}$/, `,"${field}":${raw}}]}`);
const BAD: Record<number, (n: number) => string> = {
  1: (n) => withField(n, 'vendor_trace', deep(5000)),
  3: (n) => JSON.stringify({ answers: [{ ...item(answeredSequence(n), 90), answer_score: 'x'.repeat(900_000) }] }),
  4: (n) => withField(n, 'vendor', `{"a":{"b":${deep(200)}}}`),
  6: (n) => JSON.stringify(okBody(n)).replace(/^\{/, `{"debug":${deep(3000)},`),
};
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));

describe('a reply too deep or too large for the report (built CLI)', () => {
  it('is a protocol error of that question with a short message; the run and its --resume finish', async () => {
    const server = await startSpecServer((req) => {
      const n = Number(String((req.body['question'] as { text: string }).text).slice(1));
      return { body: BAD[n]?.(n) ?? okBody(n) };
    });
    servers.push(server);
    const dataset = writeTemp(dir, 'deep.jsonl', faultDataset(8));
    const out = join(dir, 'out');
    const args = ['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--retries', '0', '--quiet', '--max-consecutive-errors', '0'];
    const first = await runCli(args, { ANSWER_AGENT_CODE: 'code-1234' });
    expect(first.stderr).toMatch(/^answer-eval: warning: 4 of 8 questions \(50\.0%\) ended in error: left out of the figures, not counted as wrong; [^\n]*\n$/);
    expect(first.code).toBe(0);
    const check = (report: Report) => {
      expect(report.results).toHaveLength(8);
      for (const [n, r] of report.results.entries()) {
        if (BAD[n] === undefined) {
          expect(r.outcome).toBe(healthyOutcome(n));
          continue;
        }
        expect(r.outcome).toBe('error');
        expect(r.error?.kind).toBe('protocol');
        expect(r.error!.message.length).toBeLessThan(600);
      }
      expect(report.results[1]!.error!.message).toMatch(/^answers\[1\]\.vendor_trace\[0\]: arrays and objects nested more than 32 deep/);
      expect(report.results[3]!.error!.message).toMatch(/^answers\[0\]\.answer_score: expected a number such as "42", got "x+… \(cut\)/);
      expect(report.results[6]!.error!.message).toMatch(/^debug\[0\]\[0\]\[0\]: arrays and objects nested/);
    };
    check(readReport(out));
    const resumed = await runCli(['run', '--resume', out, '--quiet'], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(resumed.stderr).toMatch(/^answer-eval: warning: 4 of 8 questions \(50\.0%\) ended in error: [^\n]*\n$/);
    expect(resumed.code).toBe(0);
    check(readReport(out));
    expect(server.received).toHaveLength(8); // nothing asked again
  });
});
