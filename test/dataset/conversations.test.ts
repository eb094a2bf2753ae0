import { describe, expect, it } from 'vitest';
import { readDataset, scanDataset } from '../../src/dataset/read.js';
import { checkDataset } from '../../src/dataset/validate.js';
import { InputError } from '../../src/errors.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 15: conversations in a dataset, JSONL (one per line, with "turns") and CSV (consecutive rows with
// conversation and turn), mixed with single questions; every problem at its file:line.
const dir = tempDir();
const jsonl = (rows: unknown[]): string => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

async function problemsOf(name: string, content: string): Promise<string[]> {
  const error = await readDataset(writeTemp(dir, name, content)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).problems.map((p) => `${p.line}: ${p.message}`);
}

describe('reading conversations', () => {
  it('JSONL: a line with turns is a conversation; its turns are questions named {id}#{turn}, with its language, username and tags', async () => {
    const path = writeTemp(dir, 'mixed.jsonl', jsonl([
      { id: 'q1', question: 'how do I pay?', expected_label: 'payment_methods' },
      { id: 'move-1', username: 'ann', language: 'IT', tags: 'moving|it', turns: [
        { question: 'devo traslocare', expected_label: 'trasloco', expect_dialog: 'in_progress' },
        { question: 'ancora tu?', expect_post_processed: 'contains:already', extra_data: '<x/>' },
      ] },
      { turns: [{ question: 'no id: named by its line', expect: 'fallback', expect_dialog: 'none' }] },
    ]));
    const ds = await readDataset(path);
    expect(ds.conversations).toBe(2);
    expect(ds.questions).toEqual([
      { id: 'q1', line: 1, question: 'how do I pay?', expect: 'answer', expected: { label: ['payment_methods'] }, tags: [] },
      { id: 'move-1#1', line: 2, question: 'devo traslocare', expect: 'answer', expected: { label: ['trasloco'] }, tags: ['moving', 'it'], language: 'it', username: 'ann', conversation: { id: 'move-1', turn: 1 }, checks: { dialog: 'in_progress' } },
      { id: 'move-1#2', line: 2, question: 'ancora tu?', expect: null, expected: {}, tags: ['moving', 'it'], language: 'it', username: 'ann', extraData: '<x/>', conversation: { id: 'move-1', turn: 2 }, checks: { post_processed: 'contains:already' } },
      { id: '3#1', line: 3, question: 'no id: named by its line', expect: 'fallback', expected: {}, tags: [], conversation: { id: '3', turn: 1 }, checks: { dialog: 'none' } },
    ]);
  });

  it('CSV: consecutive rows with one conversation, numbered by turn; single questions between them', async () => {
    const path = writeTemp(dir, 'mixed.csv',
      'id,conversation,turn,question,expected_label,expect_dialog,expect_post_processed,language,tags\n' +
        'q1,,,how do I pay?,payment_methods,,,,\n' +
        ',move,1,I\'m moving,moving_house,in_progress,none,en,moving\n' +
        ',move,2,"next month, on the 1st",moving_date_known,none,,,\n' +
        'q2,,,what is my customer number?,,,,,\n' +
        ',repeat,1,where is my customer number?,customer_number,,none,,\n');
    const ds = await readDataset(path);
    expect(ds.conversations).toBe(2);
    expect(ds.questions.map((q) => [q.id, q.line, q.conversation ?? null, q.checks ?? null, q.language ?? null, q.tags])).toEqual([
      ['q1', 2, null, null, null, []],
      ['move#1', 3, { id: 'move', turn: 1 }, { dialog: 'in_progress', post_processed: 'none' }, 'en', ['moving']],
      ['move#2', 4, { id: 'move', turn: 2 }, { dialog: 'none' }, 'en', ['moving']],
      ['q2', 5, null, null, null, []],
      ['repeat#1', 6, { id: 'repeat', turn: 1 }, { post_processed: 'none' }, null, []],
    ]);
  });

  it('flat JSONL rows with conversation and turn read as the CSV rows do', async () => {
    const path = writeTemp(dir, 'flat.jsonl', jsonl([
      { conversation: 'c', turn: 1, question: 'hello', tags: 'x|y' },
      { conversation: 'c', turn: 2, question: 'again', expect_dialog: 'none' },
      { id: 'q', question: 'single' },
    ]));
    const ds = await readDataset(path);
    expect(ds.questions.map((q) => [q.id, q.line, q.tags, q.checks ?? null])).toEqual([['c#1', 1, ['x', 'y'], null], ['c#2', 2, ['x', 'y'], { dialog: 'none' }], ['q', 3, [], null]]);
  });
});

describe('bad conversations: every problem at its file:line', () => {
  it('JSONL', async () => {
    expect(await problemsOf('bad.jsonl', jsonl([
      { id: 'q1', question: 'fine' },
      { id: 'c1', turns: [{ question: 'moving', expect_dialog: 'open' }, { question: 'next month', language: 'it' }] },
      { id: 'c2', turns: [] },
      { id: 'c3', guest: 1, turns: [{ question: 'hi', expect_post_processed: 're:(bad' }, 'oops'] },
      { id: 'c4', username: 'ann', turns: [{ question: 'hello' }] },
      { id: 'c5', username: 'ann', turns: [{ question: 'hello again' }] },
      { id: 'q2', question: 'a single question', expect_dialog: 'none' },
      { id: 'c4', turns: [{ question: 'again' }] },
      { id: 'c6', turns: [{ expected_label: 'x' }] },
    ]))).toEqual([
      '2: conversation "c1": turn 2 sets "language", which is the conversation\'s (set it once, beside "turns")',
      '2: conversation "c1" turn 1: expect_dialog is "open" (expected in_progress or none)',
      '3: conversation "c2": "turns" must be a list of one turn or more, e.g. [{"question": "I\'m moving house"}, {"question": "next month"}]',
      '4: conversation "c3": a conversation is never asked as a guest: it is asked as one user (its username, or a fresh one per run), who holds its dialogue',
      '4: conversation "c3": turn 2 is "oops" (expected an object such as {"question": "..."})',
      expect.stringMatching(/^4: conversation "c3" turn 1: expect_post_processed "re:\(bad" is not a valid regular expression: .*\(e\.g\. re:already answer\(ed\)\?\)$/),
      '6: conversation "c5" is asked as "ann", as conversation "c4" (line 5) is: two conversations of one user would share the service\'s state (give each its own username, or none: a fresh one is made per run)',
      '7: column "expect_dialog" is set on a single question (a turn check: give the row a conversation and a turn, or use a JSONL conversation)',
      '8: id "c4" is already used at line 5 (ids must be unique; in a CSV, the rows of a conversation are consecutive)',
      '9: conversation "c6" turn 1: column "question" is empty (every row needs the question text)',
    ]);
  });

  it('CSV with conversation and turn columns', async () => {
    expect(await problemsOf('bad.csv',
      'id,conversation,turn,question,expected_label,expect_dialog,language,guest\n' +
        'q1,,,how do I pay?,payment_methods,,,\n' +
        ',move,1,I\'m moving,moving_house,in_progress,en,\n' +
        ',move,3,next month,moving_date_known,none,,\n' +
        ',move,4,thanks,thanks,,it,\n' +
        'x,other,1,hello,,,,\n' +
        'q2,,2,orphan turn,,,,\n' +
        ',guest,1,hi,,,,1\n' +
        ',later,1,hi,,,,\n' +
        'q3,,,between,,,,\n' +
        ',later,2,hi again,,,,\n')).toEqual([
      '4: conversation "move": turn 3 where turn 2 was expected (the rows of a conversation are consecutive, numbered 1, 2, 3... in order)',
      '5: conversation "move": turn 4 where turn 3 was expected (the rows of a conversation are consecutive, numbered 1, 2, 3... in order)',
      '5: conversation "move": language "it" differs from "en" on line 3 (a conversation has one language: give it on its first row, or the same on every row)',
      '6: conversation "other": column "id" is set on turn 1 (a turn is named by its conversation and number, other#1: leave id empty)',
      '7: column "turn" is 2 but "conversation" is empty (a turn belongs to a conversation: give both)',
      '8: conversation "guest": a conversation is never asked as a guest: it is asked as one user (its username, or a fresh one per run), who holds its dialogue',
      '11: conversation "later": turn 2 where turn 1 was expected (the rows of a conversation are consecutive, numbered 1, 2, 3... in order)',
    ]);
  });

  it('validate: a turn is never compared with another (what it expects depends on the turns before it); its expectations are checked against a knowledge base', async () => {
    const path = writeTemp(dir, 'turns.jsonl', jsonl([
      { id: 'a', turns: [{ question: 'thanks', expected_label: 'thanks' }, { question: 'ok', expected_label: 'nope' }] },
      { id: 'b', turns: [{ question: 'thanks', expected_label: 'other' }] },
    ]));
    const kb = { sequence: new Set<string>(), label: new Set(['thanks', 'other']), category: new Set<string>(), sub_category: new Set<string>(), tag: new Set<string>(), answer: new Set<string>() };
    const problems = checkDataset(await scanDataset(path), { kb });
    expect(problems.map((p) => `${p.line} ${p.severity} ${p.message}`)).toEqual(['1 error expected_label "nope": no label in the knowledge base matches it']);
  });
});
