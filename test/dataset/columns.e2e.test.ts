import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, gunzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { PageData } from '../../src/report/html/data.js';
import { ReportSchema } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A column named like a known one would be ignored and its questions judged without it (every question
// "unlabeled", exit 0): it is an error in validate and run, every one at once, before anything is sent. Any other
// column is the question set's own, kept per question as metadata and shown beside the result.

const dir = tempDir('answer-eval-columns-');

const report = (out: string) => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const pageData = (html: string): PageData =>
  JSON.parse(strFromU8(gunzipSync(Buffer.from(/<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]+)<\/script>/.exec(html)![1]!, 'base64')))) as PageData;

describe('a column named like a known one', () => {
  const csv = writeTemp(dir, 'typos.csv', 'id,Question,expected_lable,notes\nq1,hello there,greeting,fine\nq2,how can I pay my bill?,payment_methods,\n');
  const jsonl = writeTemp(
    dir,
    'typos.jsonl',
    [
      { id: 'a', question: 'hello there', expected_label: 'greeting', owner: 'ann' },
      { id: 'b', question: 'how can I pay my bill?', 'expected-label': 'payment_methods', owner: 'bob' },
      { id: 'c', question: 'bye', 'expected-label': 'goodbye', Expect: 'answer' },
      { id: 'd', turns: [{ question: 'I am moving house', Expected_Label: 'moving' }] },
    ].map((o) => JSON.stringify(o)).join('\n'),
  );

  it('validate: exit 2, each near miss named with the known column, at the first line it appears on', async () => {
    const v = await runCli(['validate', '-d', csv]);
    expect(v.code).toBe(2);
    expect(v.stdout).toContain(`${csv}:1: error: column "Question" is not a known column: did you mean question?\n`);
    expect(v.stdout).toContain(`${csv}:1: error: column "expected_lable" is not a known column: did you mean expected_label?\n`);

    const j = await runCli(['validate', '-d', jsonl]);
    expect(j.code).toBe(2);
    expect(j.stdout.split('\n').filter((l) => l.includes('is not a known column'))).toEqual([
      `${jsonl}:2: error: column "expected-label" is not a known column: did you mean expected_label?`,
      `${jsonl}:3: error: column "Expect" is not a known column: did you mean expect?`,
      `${jsonl}:4: error: column "Expected_Label" is not a known column: did you mean expected_label?`,
    ]);
  });

  it('run: exit 2 with every near miss, before anything is sent (no run directory is left)', async () => {
    for (const [file, expected] of [
      [csv, ['column "Question" is not a known column: did you mean question?', 'column "expected_lable" is not a known column: did you mean expected_label?']],
      [jsonl, ['2: column "expected-label"', '3: column "Expect"', '4: column "Expected_Label"']],
    ] as const) {
      const out = join(dir, `run-${file.endsWith('csv') ? 'csv' : 'jsonl'}`);
      const r = await runCli(['run', '-d', file, '-o', out, '--quiet']);
      expect(r.code, r.stderr).toBe(2);
      for (const e of expected) expect(r.stderr).toContain(e);
      expect(r.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe("the question set's own columns: kept as metadata", () => {
  const hostile = '<img src=x onerror=alert(1)>';
  const rows = (note: string) =>
    `id,question,expected_label,notes,owner\nq1,hello there,greeting,"${note}",ann\nq2,how can I pay my bill?,payment_methods,"=HYPERLINK(""http://x"")",bob\nq4,ok bye bye,goodbye,,\n`;
  const base = writeTemp(dir, 'base.csv', rows(`check with sales; ${hostile}`));
  const edited = writeTemp(dir, 'edited.csv', rows('a new note'));

  it('validate says they are kept; run shows them in report.json, results.csv and report.html', async () => {
    const v = await runCli(['validate', '-d', base]);
    expect([v.code, v.stdout]).toEqual([0, `${base}: 3 questions, 0 errors, 0 warnings; kept as metadata: notes, owner\n`]);

    const out = join(dir, 'meta-run');
    const r = await runCli(['run', '-d', base, '-o', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const rep = report(out);
    expect(rep.run.dataset.metadata).toEqual({ columns: ['notes', 'owner'] });
    expect(rep.results.map((q) => q.meta)).toEqual([{ notes: `check with sales; ${hostile}`, owner: 'ann' }, { notes: '=HYPERLINK("http://x")', owner: 'bob' }, undefined]);
    expect(rep.results.map((q) => q.outcome)).toEqual(['correct', 'correct', 'correct']); // notes are not expectations

    const csvLines = readFileSync(join(out, 'results.csv'), 'utf8').split('\n');
    expect(csvLines[0]).toMatch(/,error,post_processed_answer,delay,top1_category,.*,sent,notes,owner$/); // the fixed columns, then the dataset's
    expect(csvLines[1]).toMatch(/,check with sales; <img src=x onerror=alert\(1\)>,ann$/);
    expect(csvLines[2]).toMatch(/,"'=HYPERLINK\(""http:\/\/x""\)",bob$/); // CSV-safe: no formula
    expect(csvLines[3]).toMatch(/,,$/);

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).not.toContain(hostile);
    expect(pageData(html).rows.map((row) => row[18])).toEqual([[['notes', `check with sales; ${hostile}`], ['owner', 'ann']], [['notes', '=HYPERLINK("http://x")'], ['owner', 'bob']], undefined]);
  });

  it('a note edited between two runs is no change for compare; rescore --dataset takes the new notes; merge keeps them', async () => {
    const [a, b] = [join(dir, 'note-a'), join(dir, 'note-b')];
    expect((await runCli(['run', '-d', base, '-o', a, '--quiet', '--format', 'json'])).code).toBe(0);
    expect((await runCli(['run', '-d', edited, '-o', b, '--quiet', '--format', 'json'])).code).toBe(0);
    const cmp = await runCli(['compare', a, b, '-o', join(dir, 'cmp'), '--fail-on', 'regression']);
    expect(cmp.code, cmp.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'cmp', 'compare.json'), 'utf8'))).toMatchObject({ counts: { common: 3, changed: 0 } });

    const rescored = join(dir, 'rescored');
    expect((await runCli(['rescore', a, '-o', rescored, '-d', edited, '--format', 'json'])).code).toBe(0);
    expect(report(rescored).results[0]!.meta).toEqual({ notes: 'a new note', owner: 'ann' });
    expect(report(rescored).run.dataset.metadata).toEqual({ columns: ['notes', 'owner'] });

    const shards = [1, 2].map((i) => join(dir, `shard-${i}`));
    for (const [i, s] of shards.entries()) expect((await runCli(['run', '-d', base, '-o', s, '--quiet', '--format', 'json', '--shard', `${i + 1}/2`])).code).toBe(0);
    const merged = join(dir, 'merged');
    expect((await runCli(['merge', ...shards, '-o', merged, '--format', 'json,csv'])).code).toBe(0);
    expect(report(merged).results.map((q) => q.meta?.['owner'])).toEqual(['ann', 'bob', undefined]);
    expect(readFileSync(join(merged, 'results.csv'), 'utf8').split('\n')[0]).toMatch(/,notes,owner$/);
  });

  it('JSONL: values as text, a conversation line\'s keys on every turn; past 20 columns and 1,000 characters, said', async () => {
    const many = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`c${String(i + 1).padStart(2, '0')}`, i]));
    const file = writeTemp(
      dir,
      'meta.jsonl',
      [
        { id: 'a', question: 'hello there', expected_label: 'greeting', ticket: 12, urgent: true, links: ['x', 'y'], empty: null, long: 'é'.repeat(1200) },
        { id: 'c', team: 'moves', turns: [{ question: 'I am moving house', owner: 'ann' }, { question: 'next month' }] },
        { id: 'd', question: 'ok bye bye', ...many },
      ].map((o) => JSON.stringify(o)).join('\n'),
    );
    const v = await runCli(['validate', '-d', file]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`${file}:1: warning: a metadata value was cut to 1000 characters (the first: column "long")`);
    expect(v.stdout).toContain(`${file}:3: warning: columns "c14", "c15", "c16", "c17", "c18", "c19", "c20", "c21", "c22" are left out: a dataset keeps at most 20 columns of its own as metadata`);

    const out = join(dir, 'meta-jsonl');
    const r = await runCli(['run', '-d', file, '-o', out, '--quiet', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`answer-eval: warning: ${file}:3: columns "c14", "c15"`);
    expect(r.stderr).toContain(`answer-eval: warning: ${file}:1: a metadata value was cut to 1000 characters`);
    const rep = report(out);
    const [a, c1, c2, d] = rep.results;
    expect(a!.meta).toEqual({ ticket: '12', urgent: 'true', links: '["x","y"]', long: `${'é'.repeat(999)}…` });
    expect([c1!.meta, c2!.meta]).toEqual([{ team: 'moves', owner: 'ann' }, { team: 'moves' }]);
    expect(Object.keys(d!.meta!)).toEqual(Array.from({ length: 13 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`));
    expect(rep.run.dataset.metadata).toEqual({ columns: [...['ticket', 'urgent', 'links', 'empty', 'long', 'team', 'owner'], ...Object.keys(d!.meta!)], leftOut: ['c14', 'c15', 'c16', 'c17', 'c18', 'c19', 'c20', 'c21', 'c22'], cut: 1 });
  });
});

describe('a set of which no question expects anything', () => {
  it('validate and run say so, naming the expectation columns and the set\'s own (a "gold" column is no expectation); one label is enough', async () => {
    const gold = writeTemp(dir, 'gold.csv', 'id,question,gold\nq1,hello there,greeting\nq2,how can I pay my bill?,payment_methods\n');
    const note =
      'no question expects anything (no row has a value in expected_answer, expected_sequence, expected_label, expected_category, ' +
      'expected_sub_category, expected_tag or expect): every question will be unlabeled, so accuracy is n/a and only errors and ' +
      "latency are measured (label them after the run: answer-eval label RUN_DIR); the set's own columns, kept as metadata and never judged: gold";
    const v = await runCli(['validate', '-d', gold]);
    expect([v.code, v.stdout]).toEqual([0, `${gold}:1: warning: ${note}\n${gold}: 2 questions, 0 errors, 1 warning; kept as metadata: gold\n`]);
    const out = join(dir, 'gold-run');
    const r = await runCli(['run', '-d', gold, '-o', out, '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`answer-eval: warning: ${gold}:1: ${note}\n`);
    expect(report(out).results.map((q) => q.outcome)).toEqual(['unlabeled', 'unlabeled']);

    const one = writeTemp(dir, 'one-label.csv', 'id,question,expected_label\nq1,hello there,greeting\nq2,how can I pay my bill?,\n');
    expect((await runCli(['validate', '-d', one])).stdout).toBe(`${one}: 2 questions, 0 errors, 0 warnings\n`);
  });
});

describe('what was read without a word (exit 0, its questions judged without it)', () => {
  // each was exit 0, its questions judged "correct" whatever the answer, or with their first value dropped
  const cases = {
    'seqno.csv': ['id,question,expected_sequence_number,expect\nq1,hello,999,answer\n', ['1: error: column "expected_sequence_number" is not a known column: did you mean expected_sequence? (a column named expected_* or expect_*']],
    'twice.csv': ['id,question,expected_label,expected_label\nq1,hello,greeting,bogus\n', ['1: error: column "expected_label" appears twice (columns 3 and 4)']],
    'empty.csv': [
      'id,question,expected_answer\nq1,hello,contains:\nq2,hi,re:\nq3,hey, || \nq4,sunny?,CONTAINS:sun\n',
      ['2: error: expected_answer "contains:" is an empty matcher', '3: error: expected_answer "re:" is an empty matcher', '4: error: expected_answer " || " has an empty alternative', '5: error: expected_answer "CONTAINS:sun" starts with "CONTAINS:", which is no matcher'],
    ],
  } as const;

  it('validate: exit 2, each at its file:line, no stack trace', async () => {
    for (const [name, [content, errors]] of Object.entries(cases)) {
      const file = writeTemp(dir, name, content);
      const v = await runCli(['validate', '-d', file]);
      expect(v.code, v.stdout + v.stderr).toBe(2);
      expect(v.stdout.split('\n').filter((l) => l.includes(': error: ')).length, v.stdout).toBe(errors.length);
      for (const e of errors) expect(v.stdout).toContain(`${file}:${e}`);
      expect(v.stderr).not.toMatch(/\bat .*\.js:\d+/);
    }
  });

  it('run: exit 2 before anything is sent', async () => {
    const file = writeTemp(dir, 'seqno-run.csv', cases['seqno.csv'][0]);
    const out = join(dir, 'seqno-run');
    const r = await runCli(['run', '-d', file, '-o', out, '--quiet']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${file}:1: column "expected_sequence_number" is not a known column: did you mean expected_sequence?`);
    expect(existsSync(out)).toBe(false);
  });
});
