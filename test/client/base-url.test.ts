import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerEndpoint, basicAuth, hasUrlSecrets, redactTyped, redactUrl } from '../../src/client/url.js';
import { ConfigError } from '../../src/errors.js';
import { runEvaluation } from '../../src/run/run.js';
import { faultDataset } from '../helpers/fault-server.js';
import { startRawServer } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A query string and a user:password@ in --base-url were dropped without a word: the endpoint was built
// relative to the base, which keeps neither, and the service answered 404.

describe('answerEndpoint', () => {
  it('keeps the path prefix, the query string and the credentials', () => {
    expect(answerEndpoint('http://user:pw@h:8080/x?token=abc').href).toBe('http://user:pw@h:8080/x/api/v1/answer?token=abc');
    expect(answerEndpoint('https://h/x/?a=1&b=2#frag').href).toBe('https://h/x/api/v1/answer?a=1&b=2');
    expect(answerEndpoint('https://h').href).toBe('https://h/api/v1/answer');
  });
});

describe('basicAuth', () => {
  it('is the Authorization header of the URL\'s user:password@, percent-decoded, in UTF-8', () => {
    expect(basicAuth(new URL('http://user:pw@h/'))).toBe('Basic dXNlcjpwdw==');
    expect(basicAuth(new URL('http://us%40er:p%3Aw%C3%A9@h/'))).toBe('Basic dXNAZXI6cDp3w6k='); // us@er:p:wé
    expect(basicAuth(new URL('http://h/?user=u'))).toBeUndefined();
  });
});

describe('redaction of a URL', () => {
  it('leaves out the user, password, query and fragment', () => {
    expect(redactUrl('http://user:pw@h:8080/x/api/v1/answer?token=abc#f')).toBe('http://h:8080/x/api/v1/answer');
    expect(hasUrlSecrets('http://user:pw@h/')).toBe(true);
    expect(hasUrlSecrets('http://h/x?token=abc')).toBe(true);
    expect(hasUrlSecrets('http://h/x#f')).toBe(false);
  });

  it('of a URL that does not parse, cuts what may be credentials and query by hand', () => {
    expect(redactTyped('http://user:pw@h:99999/x?token=abc')).toBe('http://h:99999/x');
    expect(redactTyped('user:p@ss:w@h x#f')).toBe('h x');
    expect(redactTyped('htp:/x')).toBe('htp:/x');
  });
});

describe('a --base-url with a query string and credentials', () => {
  const dir = tempDir('answer-eval-base-url-');
  const server = startRawServer(() => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [item(1, 90)] }) }));
  afterAll(async () => (await server).close());
  const dataset = writeTemp(dir, 'q.jsonl', faultDataset(3));
  const secretUrl = async () => (await server).url.replace('http://', 'http://user:Pw-s3cret@') + '/x?token=Tok-s3cret';

  it('sends the query on the endpoint and the credentials as Basic auth; the report and the journal hold neither', async () => {
    const { received, url } = await server;
    const journalDir = join(dir, 'run');
    const { report } = await runEvaluation({ dataset, baseUrl: await secretUrl(), agent: 'demo', agentCode: 'code-1234', journalDir });
    expect(received.map((r) => [r.url, r.headers['authorization']])).toEqual(Array(3).fill(['/x/api/v1/answer?token=Tok-s3cret', 'Basic dXNlcjpQdy1zM2NyZXQ=']));
    expect(report.run.baseUrl).toBe(`${url}/x`);
    const journal = readFileSync(join(journalDir, 'journal.jsonl'), 'utf8');
    expect(JSON.parse(journal.split('\n')[0]!).request).toMatchObject({ baseUrl: `${url}/x`, baseUrlRedacted: true });
    for (const secret of ['Pw-s3cret', 'Tok-s3cret', 'dXNlcjpQdy1zM2NyZXQ']) expect(journal).not.toContain(secret);
  });

  it('a resumed run is given --base-url again: the journal does not keep its secrets', async () => {
    const journalDir = join(dir, 'run');
    const { url } = await server;
    await expect(runEvaluation({ journalDir, resume: true, agentCode: 'code-1234' })).rejects.toThrow(
      new ConfigError(`the journal keeps the service as ${url}/x, without the credentials or query string its --base-url held (they are secrets): resume with --base-url again`),
    );
    const { report } = await runEvaluation({ journalDir, resume: true, rerun: 'errors', baseUrl: await secretUrl(), agentCode: 'code-1234' });
    expect(report.run.resumed).toEqual({ fromJournal: 3, asked: 0, rerun: 'errors' });
  });
});
