import { afterAll, describe, expect, it } from 'vitest';
import { QuestionError } from '../../src/model/ask-result.js';
import { tlsFailure, Transport } from '../../src/client/transport.js';
import { answerEndpoint } from '../../src/client/url.js';
import { runEvaluation } from '../../src/run/run.js';
import { faultDataset } from '../helpers/fault-server.js';
import { startRawServer } from '../helpers/raw-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// https:// against a plain-http port ended each question in OpenSSL's raw text:
// `801C42090E7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/...ssl3_record.c:350`.

const server = await startRawServer(() => ({ body: '{"answers":[]}' }));
afterAll(() => server.close());
const httpsUrl = server.url.replace('http://', 'https://');
const WRONG_VERSION = 'TLS handshake failed (wrong version number): is the service http:// rather than https://?';

describe('a TLS failure', () => {
  it('is said in words: its short reason, and the likely cause', () => {
    expect(tlsFailure('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number')).toBe(WRONG_VERSION);
    expect(tlsFailure('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', undefined)).toBe('TLS handshake failed (sslv3 alert handshake failure)');
  });

  it('https:// to a plain-http port: a network error saying so (real server)', async () => {
    const transport = new Transport({ connections: 1, timeoutMs: 5000, maxResponseBytes: 1 << 20 });
    const error = await transport.post(answerEndpoint(httpsUrl), '{}', {}).catch((e: unknown) => e);
    await transport.close();
    expect(error).toBeInstanceOf(QuestionError);
    expect(error).toMatchObject({ kind: 'network', code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: WRONG_VERSION });
  });

  it('is what the report keeps for the question', async () => {
    const dataset = writeTemp(tempDir('answer-eval-tls-'), 'q.jsonl', faultDataset(1));
    const { report } = await runEvaluation({ dataset, baseUrl: httpsUrl, agent: 'demo', agentCode: 'code-1234', retries: 0 });
    expect(report.results[0]!.error).toMatchObject({ kind: 'network', message: WRONG_VERSION });
    expect(server.received).toEqual([]);
  });
});
