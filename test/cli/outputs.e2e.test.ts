import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { startRawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// The built CLI against the embedded engine, asking the sample set in every output: xml and html are judged exactly
// as json is, text by the answers' texts and the entries recovered from the engine's knowledge base.

const dir = tempDir('answer-eval-outputs-e2e-');
const reportOf = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));

describe('run --output on the embedded sample', () => {
  const runs: Record<string, Report> = {};
  const ask = async (output: string): Promise<Report> => {
    const out = join(dir, output);
    const res = await runCli(['run', '--output', output, '-o', out, '--format', 'json,csv', '-q']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    return (runs[output] = reportOf(out));
  };

  it('xml and html give exactly the json run\'s outcomes, question by question', async () => {
    const json = await ask('json');
    expect(json.summary.outcomes.correct).toBeGreaterThan(80);
    for (const output of ['xml', 'html']) {
      const report = await ask(output);
      expect(report.run.options.output).toBe(output);
      expect(report.summary.outcomes, output).toEqual(json.summary.outcomes);
      expect(report.results.map((r) => [r.id, r.outcome, r.rank, r.top1Index]), output).toEqual(json.results.map((r) => [r.id, r.outcome, r.rank, r.top1Index]));
      // the body of each question that did not pass is kept, masked and cut; the others say only their output
      const failing = report.results.filter((r) => r.outcome !== 'correct' && r.outcome !== 'fallback_ok');
      expect(failing.length).toBeGreaterThan(0);
      for (const r of failing) expect(r.reply?.body, r.id).toMatch(output === 'xml' ? /^<\?xml/ : /^<!doctype html>/);
      expect(report.results.find((r) => r.outcome === 'correct')!.reply).toEqual({ output });
    }
  });

  it('text judges every question by its answer texts, its entries recovered from the knowledge base (no score)', async () => {
    const json = runs['json'] ?? (await ask('json'));
    const report = await ask('text');
    expect(report.summary.outcomes.error).toBe(0);
    expect(report.summary.outcomes).toEqual(json.summary.outcomes);
    expect(report.results.every((r) => r.answers.every((a) => a.answer_score === 0) && r.margin === null)).toBe(true);
    expect(report.metrics?.thresholds.recommended).toBeNull(); // no scores: no floor to recommend
    const csv = parse(readFileSync(join(dir, 'text', 'results.csv'), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(csv.every((row) => row['top1_score'] === '')).toBe(true);
  });

  it('results.csv has the post-processed answer, the delay and the top-1\'s optional fields', () => {
    const rows = parse(readFileSync(join(dir, 'json', 'results.csv'), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['post_processed_answer', 'delay', 'top1_theme', 'top1_context', 'top1_sub_category', 'top1_answer_language', 'sent']));
    const report = runs['json']!;
    rows.forEach((row, i) => {
      const r = report.results[i]!;
      const top = r.top1Index === null ? undefined : r.answers[r.top1Index];
      expect(row['delay']).toBe(top ? String(top.delay) : '');
      expect(row['top1_sub_category']).toBe(top?.sub_category ?? '');
      expect(row['post_processed_answer']).toBe(r.postProcessedAnswer ?? '');
    });
    expect(rows.some((row) => row['top1_sub_category'] !== '')).toBe(true);
  });

  it('a dataset\'s output column asks each row in its own output, the run\'s flag the others', async () => {
    const dataset = writeTemp(dir, 'mixed.csv', 'id,question,expected_label,output,ask_for_metadata\np,how can I pay my bill?,payment_methods,xml,1\nq,how can I pay my bill?,payment_methods,,\nr,how can I pay my bill?,payment_methods,text,0\n');
    const out = join(dir, 'mixed');
    const res = await runCli(['run', '-d', dataset, '--output', 'html', '-o', out, '--format', 'json', '-q']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    const report = reportOf(out);
    expect(report.results.map((r) => [r.outcome, r.reply?.output, r.sent])).toEqual([
      ['correct', 'xml', { askForMetadata: true, output: 'xml' }],
      ['correct', 'html', undefined],
      ['correct', 'text', { askForMetadata: false, output: 'text' }],
    ]);
  });
});

describe('conversations in every output', () => {
  it('xml and html judge the sample dialogues as json does, turn checks included', async () => {
    const outcomes: Record<string, unknown> = {};
    for (const output of ['json', 'xml', 'html']) {
      const out = join(dir, `dialogues-${output}`);
      const res = await runCli(['run', '-d', 'datasets/sample/conversations.jsonl', '--output', output, '--max-turn-delay', '0', '-o', out, '--format', 'json', '-q']);
      expect(res.code).toBe(0);
      const report = reportOf(out);
      outcomes[output] = report.results.map((r) => [r.id, r.outcome, r.checks, r.postProcessedAnswer]);
    }
    expect(outcomes['xml']).toEqual(outcomes['json']);
    expect(outcomes['html']).toEqual(outcomes['json']);
  });

  it('expect_post_processed is judged from a text reply; expect_dialog is refused there, naming the turn', async () => {
    const dataset = writeTemp(dir, 'repeat.jsonl', JSON.stringify({
      id: 'again',
      turns: [
        { question: 'how can I pay my bill?', expected_label: 'payment_methods', expect_post_processed: 'none' },
        { question: 'how can I pay my bill?', expected_label: 'payment_methods', expect_post_processed: 'contains:already answer' },
      ],
    }));
    const out = join(dir, 'repeat-text');
    const res = await runCli(['run', '-d', dataset, '--output', 'text', '-o', out, '--format', 'json', '-q']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(reportOf(out).results.map((r) => [r.outcome, r.checks, r.postProcessedAnswer])).toEqual([
      ['correct', { post_processed: true }, undefined],
      ['correct', { post_processed: true }, expect.stringMatching(/already answer/)],
    ]);
    const dialog = writeTemp(dir, 'dialog.jsonl', JSON.stringify({ id: 'd', turns: [{ question: 'hi', expect_dialog: 'none' }] }));
    const refused = await runCli(['run', '-d', dialog, '--output', 'text', '-o', join(dir, 'dialog-text'), '-q']);
    expect([refused.code, refused.stderr]).toEqual([2, 'answer-eval: question "d#1" (line 1): expect_dialog cannot be judged with output=text (a text reply carries no dialog state): ask it with another output (output column or --output)\n']);
  });
});

describe('languages as users write them', () => {
  it('--language en-US is sent as en, said once; --language english is refused; validate says the same of a row', async () => {
    const dataset = writeTemp(dir, 'lang.csv', 'id,question,expected_label,language\na,how can I pay my bill?,payment_methods,\nb,how can I pay my bill?,payment_methods,EN-gb\n');
    const out = join(dir, 'lang');
    const res = await runCli(['run', '-d', dataset, '--language', 'en-US', '-o', out, '--format', 'json', '-q']);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(
      'answer-eval: warning: --language en-US is sent as "en": the spec\'s language is an ISO 639-1 code, without a region\n' +
        `answer-eval: warning: ${dataset}:3: language "EN-gb" is sent as "en": the spec's language is an ISO 639-1 code, without a region\n`,
    );
    const report = reportOf(out);
    expect([report.run.options.language, ...report.results.map((r) => [r.language, r.outcome])]).toEqual(['en', ['en', 'correct'], ['en', 'correct']]);
    const bad = await runCli(['run', '-d', dataset, '--language', 'english', '-o', join(dir, 'lang-bad'), '-q']);
    expect([bad.code, bad.stderr]).toEqual([2, 'answer-eval: --language "english" is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)\n']);
    const badRows = writeTemp(dir, 'lang-bad.csv', 'question,language,output\nq,english,json\nq2,en-US,pdf\n');
    const validated = await runCli(['validate', '-d', badRows]);
    expect(validated.code).toBe(2);
    expect(validated.stdout.split('\n')).toEqual([
      `${badRows}:2: error: column "language" "english" is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)`,
      `${badRows}:3: error: column "output" is "pdf" (expected one of json, xml, html, text)`,
      `${badRows}: 0 questions, 2 errors, 0 warnings`,
      '',
    ]);
  });
});

describe('--base-url as users write it', () => {
  const paths: string[] = [];
  const server = startRawServer((req) => {
    paths.push(req.url);
    if (req.url !== '/api/v1/answer') return { status: 404, headers: { 'content-type': 'text/plain' }, body: `Cannot POST ${req.url}` };
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [item(1, 90)] }) };
  });
  afterAll(async () => (await server).close());
  const dataset = writeTemp(dir, 'one.csv', 'id,question,expected_sequence\na,q,1\n');
  const run = async (baseUrl: string) => runCli(['run', '-d', dataset, '--base-url', baseUrl, '--agent', 'demo', '-o', join(dir, `url-${paths.length}`), '--format', 'json', '-q'], { ANSWER_AGENT_CODE: 'code-1234' });

  it('https://host, https://host/api/v1 and https://host/api/v1/answer all ask /api/v1/answer', async () => {
    const { url } = await server;
    const results = [await run(url), await run(`${url}/api/v1`), await run(`${url}/api/v1/answer`)];
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, `answer-eval: --base-url ends in /api/v1: asking ${url}/api/v1/answer\n`],
      [0, `answer-eval: --base-url already ends in /api/v1/answer: using ${url}/api/v1/answer as the endpoint, as is\n`],
    ]);
    expect(paths).toEqual(Array(3).fill('/api/v1/answer'));
  });

  it('a wrong path is said to be one (exit 3), not "not authorized"', async () => {
    const { url } = await server;
    const res = await run(`${url}/v2`);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`404 from ${url}/v2/api/v1/answer, which looks like a wrong path rather than a wrong agent code (its path holds "v2" before /api/v1/answer): check --base-url`);
    expect(res.stderr).not.toMatch(/not authorized/);
  });
});
