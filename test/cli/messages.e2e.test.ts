import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { item } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 12, item 5: messages name what the user typed, and say once what the tool did with it.
const dir = tempDir();
const dataset = writeTemp(dir, 'qs.csv', 'id,question,expected_sequence\na,pay?,1\nb,meter?,2\n');
const env = { ANSWER_AGENT_CODE: 'code' };
const paths: string[] = [];
const server = createServer((req, res) => {
  paths.push(req.url ?? '');
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ answers: [item(1, 90)] }));
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const run = (...args: string[]) => runCli(['run', '-d', dataset, '--agent', 'demo', '-o', join(dir, 'out'), '--format', 'json', '-q', ...args], env);

describe('messages that name what was typed', () => {
  it('a number flag given text, and a base URL that is not http(s)', async () => {
    const abc = await run('--base-url', url, '--concurrency', 'abc');
    expect([abc.code, abc.stderr]).toEqual([2, 'answer-eval: --concurrency must be a whole number >= 1, got "abc"\n']);
    const rps = await run('--base-url', url, '--rps', '0');
    expect([rps.code, rps.stderr]).toEqual([2, 'answer-eval: --rps must be a number >= 0.000001 (one request every 11.6 days), got 0\n']);
    const gate = await run('--base-url', url, '--min-accuracy', 'high');
    expect([gate.code, gate.stderr]).toEqual([2, 'answer-eval: --min-accuracy must be a share between 0 and 1, got "high"\n']);
    const htp = await run('--base-url', 'htp:/x');
    expect([htp.code, htp.stderr]).toEqual([2, 'answer-eval: --base-url "htp:/x" is not an http:// or https:// URL (expected e.g. https://service.example)\n']);
    const notUrl = await run('--base-url', 'localhost 8080');
    expect([notUrl.code, notUrl.stderr]).toEqual([2, 'answer-eval: --base-url "localhost 8080" is not a URL (expected e.g. https://service.example)\n']);
    expect(paths).toEqual([]);
  });

  it('serve on a port in use: exit 2 naming it, not an internal error', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const res = await runCli(['serve', '--port', String(port)]);
      expect([res.code, res.stderr]).toEqual([2, `answer-eval: --port ${port}: 127.0.0.1:${port} is already in use (another process listens there): choose another port, or --port 0 for any free one\n`]);
    } finally {
      taken.close();
    }
  });

  it('every numeric flag names what was typed, and one given without its value is refused (trend, report, compare)', async () => {
    const flaky = await runCli(['trend', dir, '--max-flaky', 'abc']);
    expect([flaky.code, flaky.stderr]).toEqual([2, 'answer-eval: --max-flaky must be a whole number >= 0, got "abc"\n']);
    const bare = await runCli(['trend', dir, '--max-flaky']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Not enough arguments following: max-flaky');
    const share = await runCli(['report', '--from', dir, '--oos-share', 'half']);
    expect([share.code, share.stderr]).toEqual([2, 'answer-eval: --oos-share must be a share between 0 and 1, got "half"\n']);
  });

  it('a question set given without --dataset: the message says how to give it', async () => {
    const run = await runCli(['run', 'faq.csv']);
    expect([run.code, run.stderr]).toEqual([2, 'answer-eval: unexpected argument: "faq.csv" (a question set is given as --dataset faq.csv)\nSee answer-eval run --help.\n']);
    const validate = await runCli(['validate', 'faq.csv']);
    expect([validate.code, validate.stderr]).toEqual([2, 'answer-eval: Missing required argument: dataset (a question set is given as --dataset faq.csv)\nSee answer-eval validate --help.\n']);
  });

  it('an unknown option suggests the nearest one of the command, an unknown command the nearest command', async () => {
    const typo = await runCli(['run', '--concurrancy', '4']);
    expect([typo.code, typo.stderr]).toEqual([2, 'answer-eval: unknown option: --concurrancy (did you mean --concurrency?)\nSee answer-eval run --help.\n']);
    const two = await runCli(['compare', 'a.json', 'b.json', '--min-acuracy', '0.5', '--zzzzzz']);
    expect([two.code, two.stderr]).toEqual([2, 'answer-eval: unknown options: --min-acuracy (did you mean --min-accuracy?), --zzzzzz\nSee answer-eval compare --help.\n']);
    const command = await runCli(['rnu']);
    expect([command.code, command.stderr]).toEqual([2, 'answer-eval: unknown command "rnu" (did you mean run?)\nSee answer-eval --help.\n']);
    const port = await runCli(['serve', '--port', 'http']);
    expect([port.code, port.stderr]).toEqual([2, 'answer-eval: --port must be a port number, 0-65535 (0: any free port), got "http"\n']);
  });

  it('an option given twice is refused, naming both values: a gate given twice would otherwise never fire', async () => {
    const gate = await runCli(['compare', 'a.json', 'b.json', '--fail-on', 'regression', '--fail-on', 'regression']);
    expect([gate.code, gate.stderr]).toEqual([2, 'answer-eval: --fail-on was given 2 times (regression, regression): give it once\nSee answer-eval compare --help.\n']);
    const alias = await run('-d', 'other.csv');
    expect([alias.code, alias.stderr]).toEqual([2, `answer-eval: --dataset was given 2 times (${dataset}, other.csv): give it once\nSee answer-eval run --help.\n`]);
    const number = await run('--concurrency', '4', '--concurrency', '8');
    expect([number.code, number.stderr]).toEqual([2, 'answer-eval: --concurrency was given 2 times (4, 8): give it once\nSee answer-eval run --help.\n']);
    expect(paths).toEqual([]); // nothing was asked
  });

  it('arguments after --, timers beyond a Node timer, huge resamples, a format no table has, an empty agent, --resume a file: exit 2 before asking', async () => {
    const said = async (...args: string[]) => {
      const r = await runCli(['run', '-d', dataset, '--base-url', url, '-o', join(dir, 'out'), '-q', ...args], env);
      return [r.code, r.stderr];
    };
    expect(await said('--agent', 'demo', '--', '-d', 'faq.csv')).toEqual([2, 'answer-eval: "--" ends the options, and no command takes arguments after it (unexpected arguments after it: "-d", "faq.csv")\nSee answer-eval run --help.\n']);
    expect(await said('--agent', 'demo', '--timeout', '3000000000')).toEqual([2, 'answer-eval: --timeout must be a whole number of ms from 1 to 2147483647, got 3000000000\n']);
    expect(await said('--agent', 'demo', '--grace', '1e10')).toEqual([2, 'answer-eval: --grace must be a whole number of ms from 0 to 2147483647, got 10000000000\n']);
    expect(await said('--agent', 'demo', '--rps', '1e-7')).toEqual([2, 'answer-eval: --rps must be a number >= 0.000001 (one request every 11.6 days), got 1e-7\n']);
    expect(await said('--agent', 'demo', '--baseline', dataset, '--resamples', '1e12')).toEqual([2, 'answer-eval: --resamples must be a whole number from 1 to 100000, got 1000000000000\n']);
    expect(await said('--agent', 'demo', '--format', 'toString')).toEqual([2, 'answer-eval: --format "toString" is not a report format (expected some of: json, html, junit, md, csv)\n']);
    expect(await said('--agent', 'demo', '--format', ',')).toEqual([2, 'answer-eval: --format "," names no format (expected some of: json, html, junit, md, csv, or all)\n']);
    expect(await said('--agent', ' ')).toEqual([2, 'answer-eval: --agent is empty (expected the agent id, wikiagent)\n']);
    const resume = await runCli(['run', '--resume', dataset]);
    expect([resume.code, resume.stderr]).toEqual([2, `answer-eval: --resume ${dataset}: is a file, not a run's directory (expected the directory a run wrote its journal.jsonl to, e.g. --resume ${dir})\n`]);
    expect(paths).toEqual([]);
  });

  it('a missing knowledge base reads like a missing dataset; engine options are refused with --base-url', async () => {
    const kb = await runCli(['run', '--kb', join(dir, 'nope.jsonl'), '-o', join(dir, 'x'), '-q']);
    expect([kb.code, kb.stderr]).toEqual([2, `answer-eval: ${join(dir, 'nope.jsonl')}: no such file\n`]);
    const ds = await runCli(['run', '-d', join(dir, 'nope.csv'), '-o', join(dir, 'x'), '-q']);
    expect([ds.code, ds.stderr]).toEqual([2, `answer-eval: ${join(dir, 'nope.csv')}: no such file\n`]);
    const floor = await run('--base-url', url, '--floor', '40');
    expect([floor.code, floor.stderr]).toEqual([2, 'answer-eval: --floor is an option of the embedded engine; it cannot be used with --base-url\n']);
    const badFloor = await runCli(['run', '--floor', '140', '-o', join(dir, 'x'), '-q']);
    expect([badFloor.code, badFloor.stderr]).toEqual([2, 'answer-eval: --floor must be a score between 0 and 100, got 140\n']);
  });

  it('a base URL that already ends in /api/v1/answer is used as is, said once', async () => {
    paths.length = 0;
    const res = await run('--base-url', `${url}/api/v1/answer`);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`answer-eval: --base-url already ends in /api/v1/answer: using ${url}/api/v1/answer as the endpoint, as is\n`);
    expect(paths).toEqual(['/api/v1/answer', '/api/v1/answer']);
  });
});
