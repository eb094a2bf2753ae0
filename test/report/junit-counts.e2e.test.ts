import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { countedCases, idsOf, readJunit } from '../helpers/junit.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 24, point 7 (junit.xml's counts): a question that ended in error is an <error> testcase whether it was
// labeled or not, so junit.xml's errors are the run's error count (the error rate's population), as docs/reports.md says;
// unlabeled questions that got a response are not testcases and are counted by the suite property `unlabeled`.
const dir = tempDir();
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer((req) => {
    const q = (req.body['question'] as { text: string }).text;
    if (q.startsWith('boom')) return { status: 500, body: 'boom' };
    return { body: { answers: [item(q.endsWith('right') ? 1 : 2, 90)] } };
  });
});
afterAll(() => server.close());

describe('junit.xml counts every question that ended in error, labeled or not', () => {
  it('errors = summary.outcomes.error; unlabeled with a response are the property, not testcases; counts match the testcases', async () => {
    // l1 right, l2 wrong, l3 error (labeled); u1 unlabeled with a response, u2 and u3 unlabeled in error
    const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\nl1,ask right,1\nl2,ask wrong,1\nl3,boom l3,1\nu1,ask u1,\nu2,boom u2,\nu3,boom u3,\n');
    const out = join(dir, 'run');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--retries', '0', '--max-consecutive-errors', '0', '-q', '-o', out], { ANSWER_AGENT_CODE: 'code' });
    expect(res.code).toBe(0);
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    expect(report.summary.outcomes).toMatchObject({ correct: 1, wrong: 1, error: 3, unlabeled: 1 });
    expect(report.summary.rates.error).toBe(3 / 6);

    const { suites, totals } = await readJunit(readFileSync(join(out, 'junit.xml'), 'utf8'));
    const suite = suites[0]!;
    expect(idsOf(suite, 'error')).toEqual(['l3', 'u2', 'u3']);
    expect(idsOf(suite, 'failure')).toEqual(['l2']);
    expect(idsOf(suite, 'passed')).toEqual(['l1']);
    expect(suite.cases.map((c) => c.id)).not.toContain('u1');
    expect(suite.counts).toEqual(countedCases(suite));
    expect(suite.counts).toEqual({ tests: 5, failures: 1, errors: report.summary.outcomes.error, skipped: 0 });
    expect(totals).toMatchObject({ tests: 5, failures: 1, errors: 3 });
    expect(suite.properties['unlabeled']).toBe('1');
  });
});
