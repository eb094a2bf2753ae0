import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDataset, scanDataset } from '../../src/dataset/read.js';
import { ConfigError, InputError } from '../../src/errors.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir();
const file = (name: string, bytes: Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const problemsOf = async (path: string, encoding?: string): Promise<string[]> => {
  const error = await readDataset(path, { encoding }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems.map((p) => `${p.line}: ${p.message}`);
};
const questionsOf = async (path: string, encoding?: string): Promise<string[]> => (await readDataset(path, { encoding })).questions.map((q) => q.question);

// "caffè" and “quotes” as each encoding writes them
const LATIN1 = Buffer.from('id,question\nq1,"two\nlines"\nq2,un caff\xe8 per favore\n', 'latin1');
const CP1252 = Buffer.concat([Buffer.from('id,question\nq1,say '), Buffer.of(0x93), Buffer.from('hi'), Buffer.of(0x94), Buffer.from('\n')]);
const utf16le = (text: string, bom: boolean): Buffer => Buffer.concat([bom ? Buffer.of(0xff, 0xfe) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => Buffer.concat([Buffer.of(0xfe, 0xff), Buffer.from(text, 'utf16le').swap16()]);

describe('dataset encodings', () => {
  it('refuses Latin-1 at the line of the first bad byte, saying what it looks like and how to read it', async () => {
    const path = file('latin1.csv', LATIN1);
    expect(await problemsOf(path)).toEqual([
      '4: is not UTF-8 (byte 0xE8, after "q2,un caff"); it looks like windows-1252 / ISO-8859-1 (Latin-1), where that byte is "è": ' +
        'save the file as UTF-8, or pass --encoding latin1',
    ]);
    expect(await questionsOf(path, 'latin1')).toEqual(['two\nlines', 'un caffè per favore']);
  });

  it('tells windows-1252 by its curly quotes, and reads it when declared', async () => {
    const path = file('cp1252.csv', CP1252);
    expect(await problemsOf(path)).toEqual([expect.stringMatching(/^2: is not UTF-8 \(byte 0x93, after "q1,say "\); it looks like windows-1252, where that byte is "“": .* --encoding windows-1252$/)]);
    expect(await questionsOf(path, 'windows-1252')).toEqual(['say “hi”']);
  });

  it('refuses a bad line of JSONL with its line, and validate lists it as a problem', async () => {
    const path = file('bad.jsonl', Buffer.concat([Buffer.from('{"question":"ok"}\n\n{"question":"caff'), Buffer.of(0xe8), Buffer.from('"}\n')]));
    expect(await problemsOf(path)).toEqual([expect.stringMatching(/^3: is not UTF-8 \(byte 0xE8, after "\{"question":"caff"\)/)]);
    const scan = await scanDataset(path);
    expect(scan.problems.map((p) => `${p.file}:${p.line}`)).toEqual([`${path}:3`]);
  });

  it('counts lines across chunks and quoted line breaks before the bad byte', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `q${i},"question\nnumber ${i}"\n`).join('');
    const path = file('long.csv', Buffer.concat([Buffer.from(`id,question\n${rows}`), Buffer.from('last,caf\xe9\n', 'latin1')]));
    expect(await problemsOf(path)).toEqual([expect.stringMatching(/^10002: is not UTF-8 \(byte 0xE9, after "last,caf"\)/)]);
  });

  it('reads UTF-16 with a byte-order mark without being told (CSV and JSONL, both byte orders)', async () => {
    const csv = 'id,question\r\nq1,"caffè, per favore"\r\nq2,二つ\r\n';
    expect(await questionsOf(file('le.csv', utf16le(csv, true)))).toEqual(['caffè, per favore', '二つ']);
    expect(await questionsOf(file('be.csv', utf16be(csv)))).toEqual(['caffè, per favore', '二つ']);
    expect(await questionsOf(file('le.jsonl', utf16le('{"question":"caffè"}\n{"question":"ok"}\n', true)))).toEqual(['caffè', 'ok']);
  });

  it('refuses UTF-16 without a BOM (its NUL bytes) and reads it with --encoding utf-16le', async () => {
    const path = file('nobom.csv', utf16le('id,question\nq1,hello\n', false));
    expect(await problemsOf(path)).toEqual([
      '1: is not UTF-8: it holds NUL bytes, as UTF-16 text does (it looks like utf-16le without a byte-order mark): save the file as UTF-8, or pass --encoding utf-16le',
    ]);
    expect(await questionsOf(path, 'utf-16le')).toEqual(['hello']);
  });

  it('a stray NUL in UTF-8 text is named as such, not taken for UTF-16', async () => {
    expect(await problemsOf(file('nul.csv', Buffer.from('id,question\nq1,hel\u0000lo\n')))).toEqual([
      '2: holds a NUL byte, after "q1,hel": a question set is text; remove it (or save the file as UTF-8 text)',
    ]);
  });

  it('reports a byte sequence invalid in the declared encoding at its line', async () => {
    // a lone high surrogate on line 3
    const bytes = Buffer.concat([Buffer.from('id,question\nq1,ok\nq2,x', 'utf16le'), Buffer.of(0x00, 0xd8), Buffer.from('y\n', 'utf16le')]);
    expect(await problemsOf(file('lone.csv', bytes), 'utf-16le')).toEqual([
      '3: is not valid utf-16le (--encoding utf-16le), after "q2,x": check which encoding the file was saved in',
    ]);
  });

  it('keeps reading UTF-8 with a BOM', async () => {
    expect(await questionsOf(file('bom.csv', Buffer.from('\uFEFFid,question\nq1,caffè\n')))).toEqual(['caffè']);
  });

  it('refuses an encoding it does not know, naming the flag', async () => {
    await expect(readDataset(file('x.csv', Buffer.from('question\nhi\n')), { encoding: 'klingon' })).rejects.toThrow(
      new ConfigError('--encoding "klingon" is not an encoding (expected e.g. utf-8, latin1, windows-1252, utf-16le, utf-16be)'),
    );
  });
});
