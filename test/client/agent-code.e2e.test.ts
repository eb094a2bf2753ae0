import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAgentCode } from '../../src/client/agent-code.js';
import { QuestionError } from '../../src/model/ask-result.js';
import { Transport } from '../../src/client/transport.js';
import { answerEndpoint } from '../../src/client/url.js';
import { ConfigError } from '../../src/errors.js';
import { runEvaluation } from '../../src/run/run.js';
import { runCli } from '../helpers/cli.js';
import { faultDataset } from '../helpers/fault-server.js';
import { item, startSpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// An agent code that is no valid header value used to end the run with exit 0 after the timeout, nothing
// printed and no report: undici rejected the header, and some rejected requests never settled.

const dir = tempDir('answer-eval-code-');
const server = await startSpecServer(() => ({ body: { answers: [item(1, 90)] } }));
afterAll(() => server.close());
const dataset = writeTemp(dir, 'q.jsonl', faultDataset(4));

const messageOf = (code: string, from?: string): string => {
  try {
    checkAgentCode(code, from);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('checkAgentCode', () => {
  it('says what is wrong and where, never the code', () => {
    expect(messageOf('Kq7pZ2x\nWv9', 'ANSWER_AGENT_CODE')).toBe(
      'the agent code (from ANSWER_AGENT_CODE) holds a line break at character 8 of 11: it is sent as the wikiclone_code header, ' +
        'which cannot carry that. Fix the code where it is set (it is not shown here, being secret).',
    );
    expect(messageOf('Kq7pZ2xWv9\u200b')).toMatch(/^the agent code holds a zero-width space \(U\+200B\) at the end, probably from a copy-paste: /);
    expect(messageOf('\ufeffKq7pZ2xWv9')).toMatch(/^the agent code holds a zero-width no-break space \(byte order mark\) \(U\+FEFF\) at the start, probably from a copy-paste/);
    expect(messageOf('Kq7\u0001pZ2xWv9')).toMatch(/^the agent code holds a control character \(U\+0001\) at character 4 of 11:/);
    expect(messageOf('Kq7pZ€2xW→v9')).toMatch(/^the agent code holds a character outside Latin-1 \(U\+20AC\) at character 6 of 12 \(and 1 more such character\):/);
    expect(messageOf('Kq7pZ2x\tWv9')).toMatch(/holds a tab at character 8/);
    expect(messageOf('Kq7pZ2xWv9 ')).toMatch(/holds a space at the end, probably from a copy-paste/);
    for (const ok of ['Kq7pZ2xWv9', 'a b"c\\d&e<f', 'code-é-ÿ', 'c', '']) expect(() => checkAgentCode(ok)).not.toThrow();
  });

  it('is checked by runEvaluation before anything is sent', async () => {
    await expect(runEvaluation({ dataset, baseUrl: server.url, agent: 'demo', agentCode: 'Kq7pZ2xWv9\u200b' })).rejects.toThrow(/zero-width space/);
    expect(server.received).toEqual([]);
  });
});

describe('a bad agent code (built CLI)', () => {
  const cases: [string, string, RegExp][] = [
    ['a line break', 'Kq7pZ2x\nWv9-hidden', /the agent code \(from ANSWER_AGENT_CODE\) holds a line break at character 8 of 18:/],
    ['a zero-width space', 'Kq7pZ2xWv9-hidden\u200b', /the agent code \(from ANSWER_AGENT_CODE\) holds a zero-width space \(U\+200B\) at the end, probably from a copy-paste/],
    ['a control character', 'Kq7\u0007pZ2xWv9-hidden', /holds a control character \(U\+0007\) at character 4 of 18/],
    ['a character outside Latin-1', 'Kq7pZ2xWv9-hidden-€', /holds a character outside Latin-1 \(U\+20AC\) at the end/],
  ];
  for (const [what, code, message] of cases) {
    it(`${what}: exit 2 at once, saying what is wrong, without the code`, async () => {
      const out = join(dir, `out-${what.replace(/\W/g, '')}`);
      const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--timeout', '20000'], { ANSWER_AGENT_CODE: code }, 15_000);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
      for (const text of [res.stdout, res.stderr]) {
        expect(text).not.toContain('Kq7');
        expect(text).not.toContain('hidden');
      }
    });
  }

  it('from --agent-code-file, named as such', async () => {
    const file = writeTemp(dir, 'code.txt', 'Kq7pZ2xWv9\r\nhidden\n');
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--agent-code-file', file, '-o', join(dir, 'out-file')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      `answer-eval: the agent code (from --agent-code-file ${file}) holds a line break at character 11 of 18 (and 1 more such character): ` +
        'it is sent as the wikiclone_code header, which cannot carry that. Fix the code where it is set (it is not shown here, being secret).\n',
    );
    expect(server.received).toEqual([]);
  });

  it('a missing or unreadable --agent-code-file says why in words', async () => {
    const ask = (file: string) => runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--agent-code-file', file, '-o', join(dir, 'out-missing')]);
    const missing = await ask(join(dir, 'no-such-code.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`answer-eval: --agent-code-file ${join(dir, 'no-such-code.txt')}: no such file\n`);
    const folder = await ask(dir);
    expect(folder.stderr).toBe(`answer-eval: --agent-code-file ${dir}: is a directory (expected a file holding the agent's secret code)\n`);
    expect(server.received).toEqual([]);
  });
});

describe('Transport', () => {
  it('settles every attempt, even those undici rejects and never settles: by the timeout at the latest', async () => {
    const transport = new Transport({ connections: 8, timeoutMs: 1000, maxResponseBytes: 1 << 20 });
    const cancel = new AbortController();
    const endpoint = answerEndpoint(server.url);
    const outcomes: unknown[] = [];
    // several workers reusing the pool with a header value undici refuses, as a run with retries does
    const worker = async () => {
      for (let i = 0; i < 5; i++) {
        outcomes.push(await transport.post(endpoint, '{}', { wikiclone_code: 'Kq7pZ2xWv9\u200b' }, cancel.signal).catch((e: unknown) => e));
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 20));
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    await transport.close(); // and the pool closes, though undici still holds a request it dropped
    expect(outcomes).toHaveLength(20);
    for (const o of outcomes) expect(o).toBeInstanceOf(QuestionError);
    expect(new Set(outcomes.map((o) => (o as QuestionError).kind))).not.toContain('http');
  }, 20_000);
});
