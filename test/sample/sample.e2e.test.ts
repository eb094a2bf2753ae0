import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, type CliResult } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-sample-cli-');
const LOG = [
  'time,user,message',
  '2026-10-01T10:00:00Z,u1,How do I pay my bill?',
  '2026-10-01T10:01:00Z,u2,how do i pay my bill',
  '2026-10-01T10:02:00Z,u3,How do I pay my bil',
  '2026-10-01T10:03:00Z,u4,Please call me on 020 7946 0958',
  '2026-10-01T10:04:00Z,u5,where is my parcel',
  '2026-10-01T10:05:00Z,u6,',
  '',
].join('\n');

describe('answer-eval sample', () => {
  it('a CSV log: the set is written, the summary printed, and validate reads the set as unlabeled questions', async () => {
    const log = writeTemp(dir, 'log.csv', LOG);
    const out = join(dir, 'set.csv');
    const res = await runCli(['sample', log, '-o', out]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      [
        `answer-eval sample: ${log} (CSV, utf-8; question column "message")`,
        '  rows read: 6; questions: 5; skipped: 1 (1 empty)',
        `    ${log}:7: no question (column "message" is empty)`,
        '  asked from 2026-10-01T10:00:00.000Z to 2026-10-01T10:04:00.000Z',
        '  distinct questions: 4; after folding near-repeats (3-gram similarity >= 0.8): 3',
        '  personal data scrubbed: 1 phone number',
        '  drawn: all 3 (fewer than --size 200); seed 1',
        `  written: ${out} (summary: ${join(dir, 'set.csv.sample.json')})`,
        '',
      ].join('\n'),
    );
    expect(readFileSync(out, 'utf8').split('\n').slice(1, 4).map((l) => l.replace(/^q-[0-9a-f]{10},/, 'ID,'))).toEqual([
      `ID,How do I pay my bill?,,,,3,3,"${log}:2,3,4"`,
      `ID,Please call me on [phone],,,,1,1,${log}:5`,
      `ID,where is my parcel,,,,1,1,${log}:6`,
    ]);
    const validate = await runCli(['validate', '-d', out]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toMatch(/^\S+set\.csv:1: warning: no question expects anything .*\n\S+set\.csv: 3 questions, 0 errors, 1 warning; kept as metadata: count, users, source\n$/);
  });

  it('a JSONL log, sampled into JSONL that run asks against the embedded engine', async () => {
    const log = writeTemp(dir, 'log.jsonl', '{"q": "What are your opening hours?"}\n{"q": "what are your opening hours"}\n{"q": "Do you deliver on Sundays?"}\n');
    const out = join(dir, 'set.jsonl');
    const res = await runCli(['sample', log, '-o', out, '--seed', '3']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('drawn: all 2 (fewer than --size 200); seed 3');
    const run = await runCli(['run', '-d', out, '-o', join(dir, 'run'), '-q', '--format', 'json']);
    expect(run.stderr).toMatch(/^answer-eval: warning: \S+set\.jsonl:1: no question expects anything .*: count, source\n$/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'run', 'report.json'), 'utf8')) as { results: { id: string; question: string; outcome: string; meta?: Record<string, string> }[] };
    expect(report.results.map((r) => [r.question, r.outcome, r.meta?.['count']])).toEqual([
      ['What are your opening hours?', 'unlabeled', '2'],
      ['Do you deliver on Sundays?', 'unlabeled', '1'],
    ]);
  });

  it('a Latin-1 log: refused at its line with the way to read it, read with --encoding latin1', async () => {
    const log = join(dir, 'latin1.csv');
    writeFileSync(log, Buffer.from('question\nun caff\xe8 per favore\n', 'latin1'));
    const out = join(dir, 'latin1-set.csv');
    const refused = await runCli(['sample', log, '-o', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^answer-eval: \S+latin1\.csv:2: is not UTF-8 \(byte 0xE8, after "un caff"\).* pass --encoding latin1\n$/);
    const read = await runCli(['sample', log, '-o', out, '--encoding', 'latin1']);
    expect(read.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(',un caffè per favore,');
  });

  it('a bad log: file:line and what is wrong, exit 2, no stack trace, nothing written', async () => {
    const log = writeTemp(dir, 'bad.csv', 'question,user\nfine,u1\n"never closed,u2\nmore,u3\n');
    const res = await runCli(['sample', log, '-o', join(dir, 'bad-set.csv')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`answer-eval: ${log}:3: a quote opened on this line is never closed (everything to the end of the file, line 4, became one field): close the quote, and double every quote inside a quoted field ("")\n`);
    const again = await runCli(['sample', writeTemp(dir, 'ok.csv', 'question\nhi there\n'), '-o', log]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out \S+bad\.csv exists; nothing was read or written: add --overwrite/);
  });

  it('a log through a pipe, copied once to be read twice', async () => {
    const log = writeTemp(dir, 'piped.csv', LOG);
    const out = join(dir, 'piped-set.csv');
    const res = await new Promise<CliResult>((resolve) => {
      const child = spawn('bash', ['-c', `"${process.execPath}" "${CLI}" sample <(cat "${log}") -o "${out}"`]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/,How do I pay my bill\?,,,,3,3,"\/dev\/fd\/\d+:2,3,4"\n/);
  });

  it('a device or pipe of NUL bytes (/dev/zero) is refused at its first byte, nothing written', async () => {
    const out = join(dir, 'zero-set.csv');
    const res = await runCli(['sample', '/dev/zero', '-o', out]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('answer-eval: /dev/zero: holds a NUL byte (byte 0): not a text file (a device such as /dev/urandom, or a binary file; UTF-16 without a byte-order mark needs --encoding utf-16le)\n');
    expect(existsSync(out)).toBe(false);
  });
});
