import { describe, expect, it } from 'vitest';
import { readDataset } from '../../src/dataset/read.js';
import { InputError } from '../../src/errors.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();

async function problemsOf(name: string, content: string): Promise<string[]> {
  const error = await readDataset(writeTemp(dir, name, content)).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).message.split('\n');
}

describe('readDataset: CSV', () => {
  it('reads a BOM, quoted commas and newlines, alternatives and tags', async () => {
    const path = writeTemp(
      dir,
      'ok.csv',
      '\uFEFFid,question,expected_label,expected_sequence,language,tags\r\n' +
        'q1,"How do I pay, please?",billing || payments,,it,billing|it\r\n' +
        'q2,"two\r\nlines",,42,,\r\n' +
        ',no id here,,,,\r\n',
    );
    const ds = await readDataset(path);
    expect(ds.questions).toEqual([
      { id: 'q1', line: 2, question: 'How do I pay, please?', expect: 'answer', expected: { label: ['billing', 'payments'] }, language: 'it', tags: ['billing', 'it'] },
      { id: 'q2', line: 3, question: 'two\r\nlines', expect: 'answer', expected: { sequence: ['42'] }, tags: [] },
      { id: '5', line: 5, question: 'no id here', expect: null, expected: {}, tags: [] },
    ]);
    expect(ds.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads what spreadsheets save: semicolons or tabs (European locales), a quote inside an unquoted field as written', async () => {
    const semicolons = writeTemp(dir, 'excel-it.csv', '\uFEFFid;question;expected_label\r\nq1;"come pago; per favore?";billing\r\nq2;what does "floor" mean?;floor\r\n');
    expect((await readDataset(semicolons)).questions.map((q) => [q.id, q.question, q.expected.label])).toEqual([
      ['q1', 'come pago; per favore?', ['billing']],
      ['q2', 'what does "floor" mean?', ['floor']],
    ]);
    const tabs = writeTemp(dir, 'sheet.tsv', 'id\tquestion\texpected_label\nq1\thow do I pay, please?\tbilling\n');
    expect((await readDataset(tabs)).questions.map((q) => q.question)).toEqual(['how do I pay, please?']);
    // a comma-separated file stays one, whatever its text holds
    const commas = writeTemp(dir, 'commas.csv', 'id,question,expected_label\nq1,a;b\tc,billing\n');
    expect((await readDataset(commas)).questions.map((q) => q.question)).toEqual(['a;b\tc']);
  });

  it('reports every bad row with its line before anything is sent', async () => {
    const problems = await problemsOf(
      'bad.csv',
      'id,question,expect,language,expected_sequence\n' +
        'a,fine,,,\n' +
        'b,,,,\n' +
        'c,hi,maybe,,\n' +
        'a,dup,,,\n' +
        'd,x,,english,\n' +
        'e,y,,,4x\n' +
        'f,only,three\n',
    );
    expect(problems).toEqual([
      expect.stringMatching(/bad\.csv:3: column "question" is empty \(every row needs the question text\)$/),
      expect.stringMatching(/bad\.csv:4: column "expect" is "maybe" \(expected "answer" or "fallback"\)$/),
      expect.stringMatching(/bad\.csv:5: id "a" is already used at line 2 \(ids must be unique\)$/),
      expect.stringMatching(/bad\.csv:6: column "language" "english" is not an ISO 639-1 language code \(expected two letters such as en, it or pt; a region form such as en-US is read as en\)$/),
      expect.stringMatching(/bad\.csv:7: expected_sequence "4x" is not a whole number/),
      expect.stringMatching(/bad\.csv:8: has 3 fields, the header has 5/),
    ]);
  });

  it('refuses a header without a question column and a fallback row with expectations', async () => {
    expect(await problemsOf('nohead.csv', 'id,text\n1,hello\n')).toEqual([expect.stringMatching(/nohead\.csv:1: the header has no "question" column/)]);
    expect(await problemsOf('fb.csv', 'question,expect,expected_label\nweather?,fallback,x\n')).toEqual([
      expect.stringMatching(/fb\.csv:2: expect is "fallback" but an expected_\* column is also set/),
    ]);
  });

  it('reports an unclosed quote at the line where it opened, not at the end of the file', async () => {
    const problems = await problemsOf(
      'quote.csv',
      'id,question,expected_label\n' +
        'q1,"two\nlines",a\n' +
        'q2,fine,b\n' +
        'q3,"a ""quoted"" word",c\n' +
        'q4,ok,"never closed\n' +
        'q5,more,d\n' +
        'q6,end,e\n',
    );
    expect(problems).toEqual([
      expect.stringMatching(/quote\.csv:6: a quote opened on this line is never closed \(everything to the end of the file, line 8, became one field\)/),
    ]);
     // the runaway quote on the second line of a record that began with a closed multi-line field
    expect(await problemsOf('quote2.csv', 'id,question,expected_label\nq1,"two\nlines","open\nq2,x,y')).toEqual([
      expect.stringMatching(/quote2\.csv:3: a quote opened on this line is never closed \(everything to the end of the file, line 4,/),
    ]);
  });

  it('names a missing file', async () => {
    await expect(readDataset(`${dir}/missing.csv`)).rejects.toThrow(/missing\.csv: no such file/);
  });

  it("keeps the file system's error as the cause of a read failure; the message is the user's", async () => {
    const error = await readDataset(`${dir}/missing.csv`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(`${dir}/missing.csv: no such file`);
    expect((error as InputError).cause).toMatchObject({ code: 'ENOENT', syscall: 'stat', path: `${dir}/missing.csv` });
  });
});

describe('readDataset: JSONL', () => {
  it('accepts arrays, numbers and booleans; skips blank lines; ids default to the line', async () => {
    const path = writeTemp(
      dir,
      'ok.jsonl',
      '{"question":"hello","expected_sequence":[1,2],"guest":false,"username":"ann"}\n\n{"question":"weather?","expect":"fallback","tags":["oos"]}\n',
    );
    const ds = await readDataset(path);
    expect(ds.questions).toEqual([
      { id: '1', line: 1, question: 'hello', expect: 'answer', expected: { sequence: ['1', '2'] }, username: 'ann', guest: false, tags: [] },
      { id: '3', line: 3, question: 'weather?', expect: 'fallback', expected: {}, tags: ['oos'] },
    ]);
  });

  it('reports broken JSON and wrong types by line', async () => {
    const problems = await problemsOf('bad.jsonl', '{"question":"ok"}\n{"question": \n[1,2]\n{"question":{"x":1}}\n{"question":"g","guest":"yes"}\n');
    expect(problems).toEqual([
      expect.stringMatching(/bad\.jsonl:2: not valid JSON: .* \(expected one JSON object per line\)$/),
      expect.stringMatching(/bad\.jsonl:3: expected a JSON object/),
      expect.stringMatching(/bad\.jsonl:4: column "question" must be text, got \{"x":1\}$/),
      expect.stringMatching(/bad\.jsonl:5: column "guest" is "yes" \(expected 1, 0, true or false\)$/),
    ]);
  });
});

describe('readDataset: rows of separators', () => {
  it('skips a row of separators only, as spreadsheets leave below the data, like a blank line', async () => {
    const data = await readDataset(writeTemp(dir, 'seps.csv', 'id,question,expected_label\nq1,hello,greeting\n,,\n ,,\nq2,bye,goodbye\n,,\n,,\n'));
    expect(data.questions.map((q) => [q.id, q.line])).toEqual([['q1', 2], ['q2', 5]]);
  });
});

describe('readDataset: ids', () => {
  it('refuses an id that is not on one line: the console and CI logs print ids as they are (a GitHub ::error command)', async () => {
    const csv = await problemsOf('ids.csv', 'id,question\n"b\n::error::injected",hello\nfine,hi\n');
    expect(csv).toEqual([expect.stringMatching(/ids\.csv:2: column "id" holds a line break at character 2 \(expected an id on one line, of visible characters: /)]);
    const jsonl = await problemsOf('ids.jsonl', '{"id":"a\\u001b[31m","question":"hi"}\n{"id":"c1\\nx","turns":[{"question":"hi"}]}\n');
    expect(jsonl).toEqual([
      expect.stringMatching(/ids\.jsonl:1: column "id" holds a control character \(U\+001B\) at character 2 /),
      expect.stringMatching(/ids\.jsonl:2: conversation "c1\\nx": column "id" holds a line break at character 3 /),
    ]);
    const invisible = await problemsOf('invisible.jsonl', '{"id":"a\\u200b6","question":"hi"}\n{"id":"b\\u20287","question":"hi"}\n');
    expect(invisible).toEqual([
      expect.stringMatching(/invisible\.jsonl:1: column "id" holds an invisible character \(U\+200B\) at character 2 /),
      expect.stringMatching(/invisible\.jsonl:2: column "id" holds a line break at character 2 /),
    ]);
    const turns = await problemsOf('turns.csv', 'conversation,turn,question\n"move\r\n::warning::x",1,hello\n"move\r\n::warning::x",2,and then\n');
    expect(turns).toEqual([expect.stringMatching(/turns\.csv:2: conversation "move\\r\\n::warning::x": column "conversation" holds a line break at character 5 /)]);
  });
});

describe('readDataset: matchers', () => {
  it('reads expected_category and expected_tag, and reports a regex that does not compile', async () => {
    const ok = await readDataset(writeTemp(dir, 'm.csv', 'question,expected_category,expected_tag,expected_label\npay?,Billing,card || cash,re:^pay\n'));
    expect(ok.questions[0]!.expected).toEqual({ category: ['Billing'], tag: ['card', 'cash'], label: ['re:^pay'] });
    expect(await problemsOf('re.csv', 'question,expected_label\nok,re:fine\nbad,re:(oops\n')).toEqual([
      expect.stringMatching(/re\.csv:3: expected_label "re:\(oops" is not a valid regular expression: .* \(e\.g\. re:\^pay\(ment\)\?s\?\$\)$/),
    ]);
  });
});

describe('readDataset: the reserved prefixes expected_ and expect_', () => {
  const known = 'expected_answer, expected_sequence, expected_label, expected_category, expected_sub_category, expected_tag, expect, expect_post_processed or expect_dialog';
  it('refuses an unknown expected_* column, in a CSV header (line 1), even beside a known one, and every JSONL key at its row', async () => {
    expect(await problemsOf('seqno.csv', 'id,question,expected_sequence_number,expect\nq1,hello,999,answer\n')).toEqual([
      expect.stringMatching(
        new RegExp(`seqno\\.csv:1: column "expected_sequence_number" is not a known column: did you mean expected_sequence\\? \\(a column named expected_\\* or expect_\\* is an expectation: ${known}; name a column of your own without that prefix\\)$`),
      ),
    ]);
    expect(await problemsOf('beside.csv', 'id,question,expected_label,Expected Intent\nq1,hello,greeting,hi\n')).toEqual([
      expect.stringMatching(/beside\.csv:1: column "Expected Intent" is not a known column: did you mean expected_label\? \(a column named expected_\* or expect_\*/),
    ]);
    const jsonl = [
      { id: 'a', question: 'hello', expected_label: 'greeting' },
      { id: 'b', question: 'bye', expected_text: 'Goodbye!' },
      { id: 'c', turns: [{ question: 'I am moving house', expected_label: 'moving_house' }, { question: 'next month', expect_dialog_state: 'none' }] },
    ];
    expect(await problemsOf('keys.jsonl', jsonl.map((o) => JSON.stringify(o)).join('\n'))).toEqual([
      expect.stringMatching(/keys\.jsonl:2: column "expected_text" is not a known column: did you mean expected_answer\? \(a column named expected_\*/),
      expect.stringMatching(/keys\.jsonl:3: column "expect_dialog_state" is not a known column: did you mean expect_dialog\? \(a column named expected_\*/),
    ]);
  });

  it('keeps the columns the set may call its own (notes, expected, expectation) as metadata', async () => {
    const ds = await readDataset(writeTemp(dir, 'own.csv', 'id,question,expected_label,notes,expected,expectation\nq1,hello,greeting,n,yes,high\n'));
    expect(ds.metadata.columns).toEqual(['notes', 'expected', 'expectation']);
  });
});

describe('readDataset: a column named twice in the header', () => {
  it('refuses every name the header repeats, metadata included, after trimming (the last column would silently win)', async () => {
    expect(await problemsOf('twice.csv', 'id,question,expected_label,expected_label\nq1,hello,greeting,bogus\n')).toEqual([
      expect.stringMatching(/twice\.csv:1: column "expected_label" appears twice \(columns 3 and 4\): each column is named once \(rename or remove the others\)$/),
    ]);
    expect(await problemsOf('spaces.csv', 'id,question, expected_label,expected_label ,notes,question,notes,notes\nq1,a,b,c,d,e,f,g\n')).toEqual([
      expect.stringMatching(/spaces\.csv:1: column "question" appears twice \(columns 2 and 6\)/),
      expect.stringMatching(/spaces\.csv:1: column "expected_label" appears twice \(columns 3 and 4\)/),
      expect.stringMatching(/spaces\.csv:1: column "notes" appears 3 times \(columns 5, 7 and 8\)/),
    ]);
  });

  it('leaves empty header cells alone (the separators a spreadsheet leaves after the last column)', async () => {
    const ds = await readDataset(writeTemp(dir, 'trailing.csv', 'id,question,expected_label,,\nq1,hello,greeting,,\n'));
    expect(ds.questions.map((q) => q.expected)).toEqual([{ label: ['greeting'] }]);
  });
});

describe('readDataset: empty matchers and alternatives', () => {
  it('refuses a matcher with nothing after its prefix: it would be met by every answer', async () => {
    const problems = await problemsOf(
      'empty.csv',
      'id,question,expected_answer,expected_label\nq1,hello,contains:,\nq2,hi,re:,\nq3,hey,"contains:   ",\nq4,yo,,contains: \t\nq5,ok,contains:sun,re:^greet\n',
    );
    expect(problems).toEqual([
      expect.stringMatching(/empty\.csv:2: expected_answer "contains:" is an empty matcher: "contains:" with nothing after it is met by any text \(e\.g\. contains:by card; leave the cell empty to expect nothing\)$/),
      expect.stringMatching(/empty\.csv:3: expected_answer "re:" is an empty matcher: "re:" with nothing after it is met by any text \(e\.g\. re:\^pay\(ment\)\?s\?\$; leave the cell empty/),
      expect.stringMatching(/empty\.csv:4: expected_answer "contains:" is an empty matcher/),
      expect.stringMatching(/empty\.csv:5: expected_label "contains:" is an empty matcher/),
    ]);
  });

  it('refuses an empty alternative, in every expectation column and in a JSONL list; an empty list', async () => {
    const problems = await problemsOf(
      'alts.csv',
      'id,question,expected_answer,expected_label,expected_sequence,expected_category,expected_sub_category,expected_tag\n' +
        'q1,a, || ,,,,,\n' +
        'q2,b,,refunds || ,,,,\n' +
        'q3,c,,,|| 42,,,\n' +
        'q4,d,,,,Billing ||,,\n' +
        'q5,e,,,,,x || || y,\n' +
        'q6,f,,,,,,a||b\n',
    );
    const rule = '\\(expected values separated by " \\|\\| ", a space on each side, none empty: refunds \\|\\| returns; leave the cell empty to expect nothing\\)$';
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`alts\\.csv:2: expected_answer " \\|\\| " has an empty alternative ${rule}`)),
      expect.stringMatching(new RegExp(`alts\\.csv:3: expected_label "refunds \\|\\| " has an empty alternative ${rule}`)),
      expect.stringMatching(new RegExp(`alts\\.csv:4: expected_sequence "\\|\\| 42" has an empty alternative ${rule}`)),
      expect.stringMatching(new RegExp(`alts\\.csv:5: expected_category "Billing \\|\\|" has an empty alternative ${rule}`)),
      expect.stringMatching(new RegExp(`alts\\.csv:6: expected_sub_category "x \\|\\| \\|\\| y" has an empty alternative ${rule}`)),
      expect.stringMatching(new RegExp(`alts\\.csv:7: expected_tag "a\\|\\|b" has "\\|\\|" without a space on each side ${rule}`)),
    ]);
    const jsonl = await problemsOf('alts.jsonl', '{"question":"a","expected_label":["refunds",""]}\n{"question":"b","expected_tag":[]}\n{"question":"c","expected_label":["refunds","returns"]}\n');
    expect(jsonl).toEqual([
      expect.stringMatching(/alts\.jsonl:1: expected_label \["refunds",""\] has an empty alternative \(expected values/),
      expect.stringMatching(/alts\.jsonl:2: expected_tag \[\] is an empty list \(expected one value or more, e\.g\. \["refunds", "returns"\]; leave the key out to expect nothing\)$/),
    ]);
  });

  it('refuses a matcher prefix in another case, which would be compared as text and never met, naming the lower-case one', async () => {
    expect(await problemsOf('case.csv', 'id,question,expected_answer,expected_label\nq1,sunny?,CONTAINS:sun,\nq2,pay?,,Re:^pay\n')).toEqual([
      expect.stringMatching(/case\.csv:2: expected_answer "CONTAINS:sun" starts with "CONTAINS:", which is no matcher: matcher prefixes are lower case \(contains:sun; for the text itself, re:\^contains:sun\$\)$/),
      expect.stringMatching(/case\.csv:3: expected_label "Re:\^pay" starts with "Re:", which is no matcher: matcher prefixes are lower case \(re:\^pay; for the text itself, re:\^re:\\\^pay\$\)$/),
    ]);
  });

  it('applies the same rules to a turn check that takes matchers (expect_post_processed)', async () => {
    const line = { id: 'c', turns: [{ question: 'hello', expect_post_processed: 'contains:' }, { question: 'again', expect_post_processed: 'Contains:already' }] };
    expect(await problemsOf('checks.jsonl', JSON.stringify(line))).toEqual([
      expect.stringMatching(/checks\.jsonl:1: conversation "c" turn 1: expect_post_processed "contains:" is an empty matcher/),
      expect.stringMatching(/checks\.jsonl:1: conversation "c" turn 2: expect_post_processed "Contains:already" starts with "Contains:", which is no matcher/),
    ]);
  });
});
