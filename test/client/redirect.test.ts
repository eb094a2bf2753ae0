import { afterAll, describe, expect, it } from 'vitest';
import { runEvaluation } from '../../src/run/run.js';
import { faultDataset } from '../helpers/fault-server.js';
import { questionOf, startRawServer, type RawReply } from '../helpers/raw-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A redirect said only `HTTP 302 from <url>`, not where to.

const REPLIES: Record<string, RawReply> = {
  // absolute, with credentials and a query: redacted like any URL
  q0: { status: 302, headers: { location: 'https://u:Pw-s3cret@new.example/svc/api/v1/answer?token=Tok-s3cret' }, body: '<a href="...">moved</a>' },
  // relative to the endpoint
  q1: { status: 308, headers: { location: '/v2/api/v1/answer' }, body: '' },
  // no Location: the status and its body, as any other
  q2: { status: 302, body: 'moved' },
};
const server = await startRawServer((req) => REPLIES[questionOf(req)]!);
afterAll(() => server.close());

describe('a redirect (real server)', () => {
  it('names where it points, redacted, and says it is not followed', async () => {
    const dataset = writeTemp(tempDir('answer-eval-redirect-'), 'q.jsonl', faultDataset(3));
    const { report } = await runEvaluation({ dataset, baseUrl: `${server.url}/x`, agent: 'demo', agentCode: 'code-1234', retries: 2 });
    const endpoint = `${server.url}/x/api/v1/answer`;
    expect(report.results.map((r) => r.error)).toEqual([
      {
        kind: 'http',
        status: 302,
        message: `HTTP 302 from ${endpoint} (redirects to https://new.example/svc/api/v1/answer): answer-eval does not follow redirects; use the address it points to as --base-url`,
      },
      {
        kind: 'http',
        status: 308,
        message: `HTTP 308 from ${endpoint} (redirects to ${server.url}/v2/api/v1/answer): answer-eval does not follow redirects; use the address it points to as --base-url`,
      },
      { kind: 'http', status: 302, message: `HTTP 302 from ${endpoint}: "moved"` },
    ]);
    expect(server.received).toHaveLength(3); // asked once each: a redirect is not retried
  });
});
