import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanDataset } from '../../src/dataset/read.js';
import { checkDataset } from '../../src/dataset/validate.js';
import { FingerprintRecorder, type FileStamp } from '../../src/dataset/fingerprint.js';
import { ConfigError, DatasetChangedError, InputError } from '../../src/errors.js';
import { sampleLog, summaryPath, type SampleOptions } from '../../src/sample/sample.js';
import { logBytes, openLog } from '../../src/sample/source.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir('answer-eval-sample-');
let made = 0;
const out = (ext = 'csv'): string => join(dir, `set-${++made}.${ext}`);
/** The id the docs give a question: q- and 10 hex digits of the sha256 of its language and folded text. */
const id = (language: string, folded: string): string => `q-${createHash('sha256').update(`${language}\n${folded}`).digest('hex').slice(0, 10)}`;
const sample = (log: string, o: Partial<SampleOptions> = {}) => sampleLog({ log, out: out(), ...o });
const problemsOf = async (p: Promise<unknown>): Promise<string[]> => {
  const error = await p.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems.map((q) => `${q.line}: ${q.message}`);
};

const LOG = [
  'timestamp,user,lang,Text',
  '2026-10-01T10:00:00Z,u1,en,How do I pay my bill?',
  '2026-10-01T10:01:00Z,u2,en,how do i pay my bill',
  '2026-10-01T10:02:00Z,u2,en-US,How do I pay my bil',
  '2026-10-01T10:03:00Z,u3,en,My email is john.doe@example.com and I cannot log in',
  '2026-10-01T10:04:00Z,u4,en,my email is ann@example.org and i cannot log in',
  '2026-10-01T10:05:00Z,u5,english,Call me at +44 20 7946 0958',
  '2026-10-01T10:06:00Z,u6,fr,Où est ma commande ?',
  '2026-10-01T10:07:00Z,u7,fr,ou est ma commande',
  '2026-10-01T10:08:00Z,u8,en,',
  '2026-10-01T10:09:00Z,u8,en,"=1+1, what is it"',
  '2026-10-01T10:09:30Z,u8,en,too,many,fields',
  '',
].join('\n');

describe('sampleLog', () => {
  it('folds, scrubs and writes a CSV question set with ids, counts and sources; the summary says what it did', async () => {
    const log = writeTemp(dir, 'log.csv', LOG);
    const o = out();
    const s = await sampleLog({ log, out: o });
    expect(readFileSync(o, 'utf8')).toBe(
      [
        '\uFEFFid,question,language,expected_sequence,expected_label,expect,count,users,source',
        // 3 asked: two exact repeats and a near-repeat (en-US is en); written as asked most often (ties: the first)
        `${id('en', 'how do i pay my bill')},How do I pay my bill?,en,,,,3,2,"${log}:2,3,4"`,
        // the two e-mails scrubbed before folding: one question
        `${id('en', 'my email is [email] and i cannot log in')},My email is [email] and I cannot log in,en,,,,2,2,"${log}:5,6"`,
        // accents folded in French
        `${id('fr', 'ou est ma commande')},Où est ma commande ?,fr,,,,2,2,"${log}:8,9"`,
        // "english" is no ISO 639-1 code: not known
        `${id('', 'call me at [phone]')},Call me at [phone],,,,,1,1,${log}:7`,
        // a formula-looking question is written as text
        `${id('en', '=1+1 what is it')},"'=1+1, what is it",en,,,,1,1,${log}:11`,
        '',
      ].join('\n'),
    );
    expect(s).toMatchObject({
      columns: { question: 'Text', language: 'lang', timestamp: 'timestamp', user: 'user' },
      rows: 11,
      questions: 9,
      skipped: { empty: 1, invalid: 1, long: 0, first: [{ line: 10, kind: 'empty' }, { line: 12, kind: 'invalid' }] },
      unreadLanguages: { count: 1, first: { line: 7, value: 'english' } },
      asked: { from: '2026-10-01T10:00:00.000Z', to: '2026-10-01T10:09:00.000Z', unread: 0 },
      distinct: 6,
      groups: 5,
      pii: { email: 2, phone: 1, card: 0, iban: 0, number: 0 },
      drawn: 5,
      head: 5,
      tail: 0,
      seed: 1,
    });
    const kept = JSON.parse(readFileSync(summaryPath(o), 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ schemaVersion: 1, log, rows: 11, groups: 5, pii: { email: 2 } });
    expect(kept['tool']).toMatch(/^answer-eval \d/);
    expect(readFileSync(o, 'utf8')).not.toMatch(/@|7946/);
  });

  it('writes a set that reads as unlabeled questions: no error, and only the warning that nothing is labeled yet', async () => {
    const log = writeTemp(dir, 'log-read.csv', LOG);
    for (const ext of ['csv', 'jsonl']) {
      const o = out(ext);
      await sampleLog({ log, out: o });
      const scan = await scanDataset(o);
      const problems = checkDataset(scan);
      expect(problems.map((p) => `${p.severity}: ${p.message}`)).toEqual([expect.stringMatching(/^warning: no question expects anything .* kept as metadata and never judged: count, users, source$/)]);
      expect(scan.questions.map((q) => [q.question, q.language, q.expect, q.meta])).toEqual([
        ['How do I pay my bill?', 'en', null, { count: '3', users: '2', source: `${log}:2,3,4` }],
        ['My email is [email] and I cannot log in', 'en', null, { count: '2', users: '2', source: `${log}:5,6` }],
        ['Où est ma commande ?', 'fr', null, { count: '2', users: '2', source: `${log}:8,9` }],
        ['Call me at [phone]', undefined, null, { count: '1', users: '1', source: `${log}:7` }],
        ['=1+1, what is it', 'en', null, { count: '1', users: '1', source: `${log}:11` }],
      ]);
    }
  });

  it('reads JSONL: keys found on the first line that has them, lines that are not objects skipped with their line', async () => {
    const log = writeTemp(
      dir,
      'log.jsonl',
      [
        '{"event": "session_start"}',
        '{"utterance": "Reset my password", "locale": "en-GB"}',
        '[1, 2]',
        '42',
        '{bad json',
        '',
        '{"utterance": {"text": "nested"}}',
        '{"utterance": "reset my password!", "locale": "en", "userId": "a"}',
        '{"utterance": "reset my pasword", "userId": "b"}',
      ].join('\n'),
    );
    const o = out('jsonl');
    const s = await sampleLog({ log, out: o, language: 'en' });
    expect(s.columns).toEqual({ question: 'utterance', language: 'locale', user: 'userId' });
    expect(s.skipped.first.map((k) => `${k.line} ${k.kind}: ${k.message}`)).toEqual([
      '1 empty: no question (no key among question, question_text, query, user_query, search_query, text, user_text, utterance, user_utterance, message, user_message, msg, q, input, user_input, prompt)',
      '3 invalid: is a list, not a JSON object (expected one object per line, such as {"question": "..."})',
      '4 invalid: is a number, not a JSON object (expected one object per line, such as {"question": "..."})',
      '5 invalid: is not valid JSON (expected one JSON object per line)',
      '7 invalid: "utterance" is an object, not text',
    ]);
    // the last line has no language: --language says en
    expect(readFileSync(o, 'utf8')).toBe(
      `{"id":"${id('en', 'reset my password')}","question":"Reset my password","language":"en","expected_sequence":null,"expected_label":null,"expect":null,"count":3,"users":2,"source":"${log}:2,8,9"}\n`,
    );
  });

  it('reads a semicolon CSV and a column named by --question-column in any spelling', async () => {
    const log = writeTemp(dir, 'semi.csv', 'Zeit;Kunden Text;Kanal\n1;Wo ist mein Paket?;web\n2;wo ist mein paket;app\n');
    const s = await sample(log, { columns: { question: 'kundenText' }, language: 'de' });
    expect(s.columns).toEqual({ question: 'Kunden Text' });
    expect(s).toMatchObject({ distinct: 1, drawn: 1 });
  });

  it('the same log and seed give the same bytes; another seed another tail', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `question number ${(i * 7919) % 1000} about topic ${String.fromCharCode(97 + (i % 26))}`);
    const log = writeTemp(dir, 'many.csv', `question\n${['how do i pay', 'how do i pay', 'how do i pay', ...rows].join('\n')}\n`);
    const [a, b, c] = [out(), out(), out()];
    await sampleLog({ log, out: a, size: 20, seed: 9 });
    await sampleLog({ log, out: b, size: 20, seed: 9 });
    await sampleLog({ log, out: c, size: 20, seed: 10 });
    expect(readFileSync(a)).toEqual(readFileSync(b));
    expect(readFileSync(a)).not.toEqual(readFileSync(c));
    const lines = readFileSync(a, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[1]).toMatch(/,how do i pay,,,,3,/);
  });

  it('stratified by language: each language in proportion to how often it was asked', async () => {
    const en = Array.from({ length: 30 }, (_, i) => `en,english question ${i} about a ${'bcdfghjklm'[i % 10]}`);
    const fr = Array.from({ length: 10 }, (_, i) => `fr,question française ${i} sur ${'bcdfghjklm'[i % 10]}`);
    const log = writeTemp(dir, 'strata.csv', `language,question\n${[...en, ...fr].join('\n')}\n`);
    const s = await sample(log, { size: 8, columns: { stratify: 'language' } });
    expect(s.strata).toEqual([
      { name: '(none)', groups: 0, asked: 0, drawn: 0 },
      { name: 'en', groups: 30, asked: 30, drawn: 6 },
      { name: 'fr', groups: 10, asked: 10, drawn: 2 },
    ]);
  });

  it('--keep-pii writes personal data as it is', async () => {
    const log = writeTemp(dir, 'pii.csv', 'question\nmail me at ann@example.org\n');
    const o = out();
    const s = await sampleLog({ log, out: o, keepPii: true });
    expect(s.pii).toBe('kept');
    expect(readFileSync(o, 'utf8')).toContain('mail me at ann@example.org');
  });

  it('refuses an existing --out before reading anything, replaces it with --overwrite, and leaves no temporary file', async () => {
    const log = writeTemp(dir, 'small.csv', 'question\nhello there\n');
    const o = writeTemp(dir, 'taken.csv', 'mine\n');
    await expect(sampleLog({ log, out: o })).rejects.toThrow(ConfigError);
    await expect(sampleLog({ log, out: o })).rejects.toThrow(/--out .*taken\.csv exists; nothing was read or written: add --overwrite/);
    expect(readFileSync(o, 'utf8')).toBe('mine\n');
    await sampleLog({ log, out: o, overwrite: true });
    expect(readFileSync(o, 'utf8')).toContain('hello there');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    await expect(sampleLog({ log, out: join(dir, 'set.tsv') })).rejects.toThrow(/name it \.csv or \.jsonl/);
    await expect(sampleLog({ log, out: log, overwrite: true })).rejects.toThrow(/is the log itself/);
  });

  it('a bad log is refused at its file and line, and nothing is written', async () => {
    const o = out();
    expect(await problemsOf(sampleLog({ log: writeTemp(dir, 'quote.csv', 'question\n"never closed\nmore\n'), out: o }))).toEqual([
      '2: a quote opened on this line is never closed (everything to the end of the file, line 3, became one field): close the quote, and double every quote inside a quoted field ("")',
    ]);
    expect(await problemsOf(sampleLog({ log: writeTemp(dir, 'nocol.csv', 'a,b\n1,2\n'), out: o }))).toEqual([
      expect.stringMatching(/^1: no question column \(looked for question, .*\) \(the header has: a, b\); name the question's column with --question-column$/),
    ]);
    expect(await problemsOf(sampleLog({ log: writeTemp(dir, 'named.csv', 'a,b\n1,2\n'), out: o, columns: { question: 'a', user: 'who' } }))).toEqual([
      '1: --user-column "who" is no column of the header (the header has: a, b)',
    ]);
    const nul = join(dir, 'nul.csv');
    writeFileSync(nul, Buffer.from('question\nhello\u0000there\n'));
    expect(await problemsOf(sampleLog({ log: nul, out: o }))).toEqual([expect.stringMatching(/^2: holds a NUL byte, after "hello": a log is text/)]);
    expect(await problemsOf(sampleLog({ log: writeTemp(dir, 'none.csv', 'question\n\n  \n'), out: o }))).toEqual(['0: holds no question (no row after the header)']);
    expect(await problemsOf(sampleLog({ log: writeTemp(dir, 'allbad.jsonl', '[1]\n"x"\n'), out: o }))).toEqual([
      "0: no line has a question key (looked for question, question_text, query, user_query, search_query, text, user_text, utterance, user_utterance, message, user_message, msg, q, input, user_input, prompt); it has no JSON object; name the question's key with --question-column",
    ]);
    expect(existsSync(o)).toBe(false);
  });

  it('reads Latin-1 with --encoding, and says how when it is not given', async () => {
    const log = join(dir, 'latin1.csv');
    writeFileSync(log, Buffer.from('question\nun caff\xe8 per favore\nun caff\xe8 per favore?\n', 'latin1'));
    expect(await problemsOf(sampleLog({ log, out: out() }))).toEqual([expect.stringMatching(/^2: is not UTF-8 \(byte 0xE8, after "un caff"\).* --encoding latin1$/)]);
    const o = out();
    await sampleLog({ log, out: o, encoding: 'latin1' });
    expect(readFileSync(o, 'utf8')).toContain(',un caffè per favore,,,,2,');
  });
});

describe('a log read twice', () => {
  it('refuses a log that changed between the two readings', async () => {
    const path = writeTemp(dir, 'live.csv', 'question\nhello\n');
    const source = await openLog(path, undefined);
    const recorder = new FingerprintRecorder();
    let stamp: FileStamp | undefined;
    for await (const _ of logBytes(source, { recorder, opened: (s) => (stamp = s) }));
    const checked = recorder.finish(stamp!);
    writeFileSync(path, 'question\nhello\nand one more line\n');
    const again = async (): Promise<void> => {
      for await (const _ of logBytes(source, { checked }));
    };
    await expect(again()).rejects.toThrow(DatasetChangedError);
    await expect(again()).rejects.toThrow(/live\.csv changed while it was being sampled \(size 15 → 33 bytes.*\); sample reads a log twice/);
  });
});
