import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_KEPT_BODY_CHARS } from '../../src/client/outputs.js';
import { render } from '../../src/engine/render.js';
import { runEvaluation } from '../../src/run/run.js';
import { startRawServer, questionOf } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A service that echoes the agent code in an xml, html or text reply: the code is masked in the answers kept, in the
// body kept for the reader, and nowhere in the report or the journal, whatever the markup does to it.

const CODE = 'Sekr3t-Agent-77';
const entities = (s: string): string => [...s].map((c) => `&#${c.codePointAt(0)};`).join('');

const dir = tempDir('answer-eval-outputs-secrets-');

/** Each question names what the server sends back, in the output it was asked in. */
const replies: Record<string, (output: 'xml' | 'html' | 'text') => string> = {
  // the engine's rendering of an answer that holds the code (escaped as each output escapes it) and of tags around it
  plain: (output) => render({ answers: [item(1, 80, { answer: `your code is ${CODE}`, tags: `a|${CODE}|b` })] }, output).body,
  // the code as character references (an xml or html body may write any character so)
  escaped: (output) =>
    output === 'text'
      ? `code: ${CODE}\n`
      : render({ answers: [item(2, 80, { answer: '@ANSWER@' })] }, output).body.replace('@ANSWER@', `code: ${entities(CODE)}`),
  // the code split by markup: the raw text never holds it, the answer read from it does
  split: (output) =>
    output === 'text'
      ? `code: ${CODE}\n`
      : output === 'xml'
        ? render({ answers: [item(3, 80, { answer: '@ANSWER@' })] }, output).body.replace('@ANSWER@', `code: ${CODE.slice(0, 6)}<!-- -->${CODE.slice(6)}`)
        : render({ answers: [item(3, 80, { answer: '@ANSWER@' })] }, output).body.replace('@ANSWER@', `code: ${CODE.slice(0, 6)}<b></b>${CODE.slice(6)}`),
  // a long reply cut right after the start of the code
  long: (output) => `${'x'.repeat(MAX_KEPT_BODY_CHARS - 6)}${CODE} and more` + (output === 'text' ? '' : '<'),
};

const server = startRawServer((req) => {
  const output = req.body['output'] as 'xml' | 'html' | 'text';
  return { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: replies[questionOf(req)]!(output) };
});
afterAll(async () => (await server).close());

describe.each(['xml', 'html', 'text'] as const)('a secret echoed in an output=%s reply', (output) => {
  it('is masked in the answers and in the body kept; neither the report nor the journal holds it', async () => {
    const dataset = writeTemp(dir, `${output}.csv`, 'id,question,expected_answer\nplain,plain,nothing\nescaped,escaped,nothing\nsplit,split,nothing\nlong,long,nothing\n');
    const journalDir = join(dir, output);
    const { report } = await runEvaluation({ dataset, baseUrl: (await server).url, agent: 'a', agentCode: CODE, output, journalDir });
    const [plain, escaped, split, long] = report.results;
    // every question failed: its body is kept, masked
    expect(plain!.answers[0]!.answer).toBe('your code is <agent code>');
    expect(plain!.reply!.body).toContain('<agent code>');
    if (output !== 'text') expect(plain!.answers[0]!.tags).toEqual(['a', '<agent code>', 'b']);
    expect(escaped!.answers[0]!.answer).toBe('code: <agent code>');
    expect(escaped!.reply!.body).toMatch(/code: <agent code>/);
    expect(split!.answers[0]!.answer).toBe('code: <agent code>');
    if (output === 'text') expect(split!.reply!.body).toBe('code: <agent code>\n');
    // the markup between the pieces is masked with them: the body is kept, the code nowhere in it
    else expect(split!.reply!.body).toContain('code: <agent code><');
    if (output === 'text') {
      expect(long!.reply!.cut).toBe(true);
      expect(long!.reply!.body!.length).toBeLessThanOrEqual(MAX_KEPT_BODY_CHARS + 1);
      expect(long!.reply!.body).toMatch(/x…$/);
    } else expect(long!.outcome).toBe('error'); // not xml/html: a protocol error, its body kept all the same
    expect(long!.reply!.body!.endsWith('…')).toBe(true);
    const written = JSON.stringify(report) + readFileSync(join(journalDir, 'journal.jsonl'), 'utf8');
    expect(written).not.toContain(CODE);
    expect(written).not.toContain(CODE.slice(0, 6));
  });
});
