import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, strFromU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { faultDataset } from '../helpers/fault-server.js';
import { questionOf, startRawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';

// The password and the query of --base-url are secrets, as the agent code is: they reach the service (as Basic
// auth and on the endpoint), and no file of the run nor its output holds them, whatever prints the URL (the
// console, report.run.baseUrl, the journal, an HTTP error, a 404 that stops the run, the --insecure warning).

const dir = tempDir('answer-eval-url-secrets-');
const PASSWORD = 'Pw-k7Qz3';
const TOKEN = 'Tok-m9Xw4';
const BASIC = 'dXNlcjpQdy1rN1F6Mw=='; // user:Pw-k7Qz3
const SECRETS = [PASSWORD, TOKEN, BASIC.slice(0, -2)];
const json = { 'content-type': 'application/json' };
const server = await startRawServer((req) =>
  questionOf(req) === 'q1' ? { status: 500, headers: json, body: '{"error":"down"}' } : { headers: json, body: JSON.stringify({ answers: [item(1, 90)] }) },
);
const refusing = await startRawServer(() => ({ status: 404, body: 'not found' }));
afterAll(() => Promise.all([server.close(), refusing.close()]));
const dataset = writeTemp(dir, 'q.jsonl', faultDataset(3));
const withSecrets = (url: string): string => `${url.replace('http://', `http://user:${PASSWORD}@`)}/x?token=${TOKEN}`;


/** Every file of a run, report.html's gzipped page data too, and the output. */
function textsOf(out: string, res: { stdout: string; stderr: string }): [string, string][] {
  const texts = filesUnder(out).map((f): [string, string] => [f, readFileSync(f, 'utf8')]);
  const html = texts.find(([f]) => f.endsWith('report.html'))?.[1];
  const b64 = html && /<script id="page-data" type="application\/octet-stream">([A-Za-z0-9+/=]*)<\/script>/.exec(html)?.[1];
  if (b64) texts.push(['report.html page data', strFromU8(gunzipSync(Buffer.from(b64, 'base64')))]);
  return [...texts, ['stdout', res.stdout], ['stderr', res.stderr]];
}

const expectNoSecrets = (texts: [string, string][]): void => {
  for (const [name, text] of texts) for (const secret of SECRETS) expect(text.includes(secret), `${name} holds ${secret}`).toBe(false);
};

describe('the credentials and query of --base-url (built CLI)', () => {
  const out = join(dir, 'run');

  it('reach the service, and no file nor output holds them', async () => {
    const res = await runCli(['run', '-d', dataset, '--base-url', withSecrets(server.url), '--agent', 'demo', '-o', out, '--retries', '0', '--insecure'], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(res.code, res.stderr).toBe(0);
    expect(server.received.map((r) => [r.url, r.headers['authorization']])).toEqual(Array(3).fill(['/x/api/v1/answer?token=Tok-m9Xw4', `Basic ${BASIC}`]));
    expect(res.stderr).toContain('answer-eval: --base-url holds a user name and password: they are sent as HTTP Basic auth (an Authorization header), and never shown\n');
    expect(res.stderr).toContain(`Anyone on the path to ${server.url}/x can read`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { run: { baseUrl: string }; results: { error: { message: string } | null }[] };
    expect(report.run.baseUrl).toBe(`${server.url}/x`);
    expect(report.results[1]!.error!.message).toBe(`HTTP 500 from ${server.url}/x/api/v1/answer: "{\\"error\\":\\"down\\"}"`);
    expectNoSecrets(textsOf(out, res));
  });

  it('are not journaled: a resumed run without --base-url is refused, and resumes with it', async () => {
    const refused = await runCli(['run', '--resume', out], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `answer-eval: the journal keeps the service as ${server.url}/x, without the credentials or query string its --base-url held (they are secrets): resume with --base-url again\n`,
    );
    const res = await runCli(['run', '--resume', out, '--rerun', 'errors', '--base-url', withSecrets(server.url)], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(res.code, res.stderr).toBe(0);
    expect(server.received.at(-1)!.url).toBe('/x/api/v1/answer?token=Tok-m9Xw4');
    expectNoSecrets(textsOf(out, res));
  });

  it('are not shown when a 404 stops the run', async () => {
    const stopped = join(dir, 'stopped');
    const res = await runCli(['run', '-d', dataset, '--base-url', withSecrets(refusing.url), '--agent', 'demo', '-o', stopped], { ANSWER_AGENT_CODE: 'code-1234' });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`404 from ${refusing.url}/x/api/v1/answer: agent "demo" is not authorized`);
    expectNoSecrets(textsOf(stopped, res));
  });
});
