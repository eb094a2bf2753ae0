import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/model/report.js';
import { renderString } from '../../src/report/formats.js';
import { runCli } from '../helpers/cli.js';
import { makeReport } from '../helpers/report-fixture.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
let server: SpecServer;
beforeAll(async () => {
  server = await startSpecServer(() => ({ body: { answers: [item(1, 90), item(2, 30)] } }));
});
afterAll(() => server.close());

describe('answer-eval run --format / $GITHUB_STEP_SUMMARY', () => {
  it('writes every format by default and appends summary.md to $GITHUB_STEP_SUMMARY', async () => {
    const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\na,pay?,1\nb,meter?,2\n');
    const out = join(dir, 'all');
    const step = writeTemp(dir, 'step.md', '');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out], { ANSWER_AGENT_CODE: 'code-c', GITHUB_STEP_SUMMARY: step });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    for (const f of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'results.csv']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(readFileSync(step, 'utf8')).toBe(`${readFileSync(join(out, 'summary.md'), 'utf8')}\n`);
  });

  it('writes only the formats asked for', async () => {
    const dataset = writeTemp(dir, 'one.csv', 'question\nhello\n');
    const out = join(dir, 'some');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--format', 'csv,junit'], { ANSWER_AGENT_CODE: 'code-c', GITHUB_STEP_SUMMARY: '' });
    expect(res.code).toBe(0);
    expect(['results.csv', 'junit.xml', 'report.json', 'report.html'].map((f) => existsSync(join(out, f)))).toEqual([true, true, false, false]);
  });
});

describe('answer-eval report --from', () => {
  it('re-renders the chosen formats from a saved report.json', async () => {
    const from = writeTemp(dir, 'report.json', renderString('json', makeReport(30)));
    const out = join(dir, 'again');
    const res = await runCli(['report', '--from', from, '--format', 'html,md', '--out', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(existsSync(join(out, 'junit.xml'))).toBe(false);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('### answer-eval: faq &lt;&amp;&gt;.csv');
  });

  it('rewrites an older report in place: the pretty layout without metrics becomes one result per line, metrics computed', async () => {
    const old = makeReport(60, { metrics: false });
    const place = join(dir, 'in-place');
    mkdirSync(place);
    const from = writeTemp(place, 'report.json', JSON.stringify(old, null, 2));
    const res = await runCli(['report', '--from', from]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const text = readFileSync(from, 'utf8');
    expect(text.split('\n').filter((l) => l.startsWith('    {"id":'))).toHaveLength(60);
    const again = JSON.parse(text) as typeof old;
    expect(again.results).toEqual(old.results);
    expect(again.metrics?.entries.length).toBeGreaterThan(0);
    expect(readFileSync(join(place, 'results.csv'), 'utf8').trim().split('\n')).toHaveLength(61);
  });

  it('names the file and the first bad field of an invalid report', async () => {
    const report = makeReport(3) as unknown as { results: { outcome: string }[] };
    report.results[1]!.outcome = 'maybe';
    const from = writeTemp(dir, 'bad.json', JSON.stringify(report));
    const res = await runCli(['report', '--from', from]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`^answer-eval: ${from}: results\\[1\\]\\.outcome: `));
  });

  it('refuses another schema major, naming both versions', async () => {
    const from = join(dir, 'v2.json');
    writeFileSync(from, JSON.stringify({ ...makeReport(2), schemaVersion: '2.0' }));
    const res = await runCli(['report', '--from', from]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`answer-eval: ${from}: schemaVersion 2.0 cannot be read by this answer-eval (schema ${SCHEMA_VERSION}); use an answer-eval of the same major version\n`);
  });

  it('says when the file is not JSON', async () => {
    const from = writeTemp(dir, 'junk.json', '{nope');
    const res = await runCli(['report', '--from', from]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`answer-eval: ${from}: not JSON (`);
  });
});
