import { describe, expect, it } from 'vitest';
import { kbRefsOf } from '../../src/dataset/kb-refs.js';
import { scanDataset } from '../../src/dataset/read.js';
import { checkDataset } from '../../src/dataset/validate.js';
import { parseKnowledgeBase } from '../../src/engine/index.js';
import { compileMatcher } from '../../src/score/match.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// The request fields a row may set, its language as users write it, and the sub category expectation: read, checked
// with file:line, and said once where a value is taken otherwise than written.

const dir = tempDir('answer-eval-request-columns-');
const lines = (problems: { line: number; severity?: string; message: string }[]) => problems.map((p) => `${p.line} ${p.severity} ${p.message}`);

describe('per-row request fields', () => {
  it('reads 0/1 (and true/false) flags and an output in any case, CSV and JSONL alike', async () => {
    const csv = writeTemp(dir, 'rows.csv', 'id,question,ask_for_metadata,using_repeating_answers,force_subscription,output\na,q1,1,0,true,XML\nb,q2,,,,\n');
    const jsonl = writeTemp(dir, 'rows.jsonl', '{"id":"a","question":"q1","ask_for_metadata":1,"using_repeating_answers":"0","force_subscription":true,"output":"xml"}\n{"id":"b","question":"q2"}\n');
    for (const path of [csv, jsonl]) {
      const scan = await scanDataset(path);
      expect(scan.problems).toEqual([]);
      expect(scan.questions.map((q) => q.request)).toEqual([{ forceSubscription: true, askForMetadata: true, usingRepeatingAnswers: false, output: 'xml' }, undefined]);
    }
  });

  it('a bad value is an error at its line, naming the column and what it takes', async () => {
    const path = writeTemp(dir, 'bad.jsonl', '{"question":"q","output":"pdf","using_repeating_answers":2}\n{"turns":[{"question":"t","force_subscription":"yes"}]}\n');
    expect(lines(checkDataset(await scanDataset(path)))).toEqual([
      '1 error column "using_repeating_answers" is 2 (expected 1, 0, true or false)',
      '1 error column "output" is "pdf" (expected one of json, xml, html, text)',
      '2 error conversation "2" turn 1: column "force_subscription" is "yes" (expected 1, 0, true or false)',
    ]);
  });

  it('a near miss of one is an error, as of any known column', async () => {
    const path = writeTemp(dir, 'near.csv', 'question,ask_for_metdata,Output\nq,1,xml\n');
    expect(lines(checkDataset(await scanDataset(path)))).toEqual([
      '1 error column "ask_for_metdata" is not a known column: did you mean ask_for_metadata?',
      '1 error column "Output" is not a known column: did you mean output?',
    ]);
  });
});

describe('a row\'s language', () => {
  it('takes an ISO 639-1 code in any case; a region form is read as its code, said once at the first such row', async () => {
    const path = writeTemp(dir, 'lang.csv', 'id,question,language\na,q1,EN\nb,q2,en-US\nc,q3,pt_BR\nd,q4,it\n');
    const scan = await scanDataset(path);
    expect(scan.questions.map((q) => q.language)).toEqual(['en', 'en', 'pt', 'it']);
    expect(lines(checkDataset(scan))).toEqual([
      expect.stringMatching(/^1 warning no question expects anything /), // the set has no expectation column
      '3 warning language "en-US" is sent as "en" (and 1 more question with a region form): the spec\'s language is an ISO 639-1 code, without a region',
    ]);
  });

  it('refuses what is no ISO 639-1 code, in a question and in a conversation', async () => {
    const path = writeTemp(dir, 'badlang.jsonl', '{"question":"q","language":"english"}\n{"question":"q2","language":"xx"}\n{"turns":[{"question":"t"}],"language":"eng"}\n');
    expect(lines(checkDataset(await scanDataset(path)))).toEqual([
      '1 error column "language" "english" is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)',
      '2 error column "language" "xx" is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)',
      '3 error conversation "3": column "language" "eng" is not an ISO 639-1 language code (expected two letters such as en, it or pt; a region form such as en-US is read as en)',
    ]);
  });

  it('the rows of a conversation agree on its language by code (en and en-GB are one)', async () => {
    const path = writeTemp(dir, 'conv.csv', 'conversation,turn,question,language\nc,1,hi,en\nc,2,more,en-GB\nd,1,ciao,it\nd,2,more,de\n');
    expect(lines(checkDataset(await scanDataset(path)))).toEqual([
      '2 warning language "en-GB" is sent as "en" (and 1 more question with a region form): the spec\'s language is an ISO 639-1 code, without a region',
      '5 error conversation "d": language "de" differs from "it" on line 4 (a conversation has one language: give it on its first row, or the same on every row)',
    ]);
  });
});

describe('expected_sub_category', () => {
  it('is matched against the answer\'s sub_category with the matcher prefixes, and checked against the knowledge base', async () => {
    const matcher = compileMatcher({ sub_category: ['Late Fees', 're:^instal'] });
    const answer = { answer: 'x', sequence_number: 1, tags: [] };
    expect([matcher({ ...answer, sub_category: 'late  fees' }), matcher({ ...answer, sub_category: 'instalments' }), matcher({ ...answer, sub_category: 'payment' }), matcher(answer)]).toEqual([true, true, false, false]);
    const kb = kbRefsOf(parseKnowledgeBase('{"sequence_number":1,"answer":"a","sub_category":"Late fees"}\n', 'kb.jsonl'));
    const path = writeTemp(dir, 'sub.csv', 'question,expected_sub_category\nq1,late fees\nq2,garden\nq3,re:(bad\n');
    expect(lines(checkDataset(await scanDataset(path), { kb }))).toEqual([
      expect.stringMatching(/^4 error expected_sub_category "re:\(bad" is not a valid regular expression/),
      '3 warning expected_sub_category "garden": no sub category in the knowledge base matches it',
    ].sort());
  });
});
