import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerEndpoint, basicAuth, hasUrlSecrets, redactTyped, redactUrl } from '../../src/client/url.js';
import { ConfigError, NotAuthorizedError, WrongPathError } from '../../src/errors.js';
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

describe('a base URL as users write it', () => {
  it('stands for the service\'s root: the root, a trailing slash, the /api/v1 form of the docs and the endpoint itself', () => {
    for (const typed of ['https://h', 'https://h/', 'https://h/api/v1', 'https://h/api/v1/', 'https://h/api/v1/answer', 'https://h/API/V1/Answer/']) {
      expect(answerEndpoint(typed).href, typed).toBe('https://h/api/v1/answer');
    }
    expect(answerEndpoint('https://h/qa/api/v1?k=v').href).toBe('https://h/qa/api/v1/answer?k=v');
    expect(answerEndpoint('https://h/myapi/v1').href).toBe('https://h/myapi/v1/api/v1/answer');
  });

  // a service under a path prefix that answers only its endpoint, and 404s anything else as a router does
  const routes = (prefix: string) =>
    startRawServer((req) => {
      const path = req.url.split('?')[0];
      if (path === `${prefix}/api/v1/answer`) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [item(1, 90)] }) };
      return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST ${path}</pre></body></html>` };
    });
  const root = routes('');
  const prefixed = routes('/qa');
  afterAll(async () => Promise.all([(await root).close(), (await prefixed).close()]));
  const dataset = writeTemp(tempDir('answer-eval-forms-'), 'forms.jsonl', faultDataset(1));

  it('asks /api/v1/answer for every form, and keeps a path prefix', async () => {
    for (const [server, prefix] of [[root, ''], [prefixed, '/qa']] as const) {
      const { url, received } = await server;
      received.length = 0;
      for (const form of ['', '/', '/api/v1', '/api/v1/answer']) {
        const { report, stoppedBy } = await runEvaluation({ dataset, baseUrl: `${url}${prefix}${form}`, agent: 'demo', agentCode: 'code-1234' });
        expect(stoppedBy, form).toBeUndefined();
        expect(report.summary.outcomes.error).toBe(0);
      }
      expect(received.map((r) => r.url)).toEqual(Array(4).fill(`${prefix}/api/v1/answer`));
    }
  });

  it('a router\'s 404 is said to be a wrong path, naming the URL and what the body says; the spec\'s 404 stays "not authorized"', async () => {
    const { url } = await prefixed;
    const { stoppedBy } = await runEvaluation({ dataset, baseUrl: `${url}/other`, agent: 'demo', agentCode: 'code-1234' });
    expect(stoppedBy).toBeInstanceOf(WrongPathError);
    expect(stoppedBy!.message).toBe(
      `404 from ${url}/other/api/v1/answer, which looks like a wrong path rather than a wrong agent code (the body says "Cannot POST /other/api/v1/answer</pre></body></html>"): ` +
        'check --base-url; requests go to {base-url}/api/v1/answer (give the service\'s root, e.g. https://host, or its https://host/api/v1 form). If the path is right, check --agent and ANSWER_AGENT_CODE',
    );
    // a base URL that holds another version of the API: its path says so, whatever the body
    const { stoppedBy: v2 } = await runEvaluation({ dataset, baseUrl: `${url}/qa/api/v2`, agent: 'demo', agentCode: 'code-1234' });
    expect(v2!.message).toMatch(new RegExp(`^404 from ${url}/qa/api/v2/api/v1/answer, which looks like a wrong path rather than a wrong agent code \\(its path holds "api" before /api/v1/answer\\)`));
  });

  it('nginx\'s "404 Not Found" page is a wrong path; a 404 that speaks of the agent or says nothing is the spec\'s', async () => {
    const bodies = [
      ['<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>', WrongPathError],
      ['{"timestamp":"2026-01-01T00:00:00Z","status":404,"error":"Not Found","path":"/api/v1/answer"}', WrongPathError],
      ['{"error":{"message":"not authorized: check the wikiclone_code header"}}', NotAuthorizedError],
      ['', NotAuthorizedError],
      ['Not Found', NotAuthorizedError],
    ] as const;
    for (const [body, kind] of bodies) {
      const server = await startRawServer(() => ({ status: 404, body }));
      const { stoppedBy } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'demo', agentCode: 'code-1234' });
      await server.close();
      expect(stoppedBy, body).toBeInstanceOf(kind);
    }
  });
});
