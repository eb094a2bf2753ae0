import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB } from '../../src/engine/index.js';
import { ConfigError } from '../../src/errors.js';
import { headerDifferences, type JournalHeader } from '../../src/run/journal.js';
import { runEvaluation } from '../../src/run/run.js';
import { checkBaseUrl, openTarget } from '../../src/run/target.js';
import { fifoOf, tempDir, writeTemp } from '../helpers/tmp.js';

describe('checkBaseUrl', () => {
  it('keeps a base URL as typed; one ending in /api/v1/answer is the endpoint, with a note', () => {
    expect(checkBaseUrl('https://svc.example/prefix')).toEqual({ baseUrl: 'https://svc.example/prefix', notes: [] });
    expect(checkBaseUrl('https://svc.example/api/v1/answer')).toEqual({
      baseUrl: 'https://svc.example/',
      notes: ['--base-url already ends in /api/v1/answer: using https://svc.example/api/v1/answer as the endpoint, as is'],
    });
    expect(checkBaseUrl('http://h:8080/x/api/v1/answer/?token=t').baseUrl).toBe('http://h:8080/x?token=t');
  });

  it('says once that credentials are sent as Basic auth, never showing them', () => {
    expect(checkBaseUrl('http://u:p@h:8080/x/api/v1/answer/')).toEqual({
      baseUrl: 'http://u:p@h:8080/x',
      notes: [
        '--base-url already ends in /api/v1/answer: using http://h:8080/x/api/v1/answer as the endpoint, as is',
        '--base-url holds a user name and password: they are sent as HTTP Basic auth (an Authorization header), and never shown',
      ],
    });
    expect(() => checkBaseUrl('http://u:50%zz@h/?token=t')).toThrow(
      new ConfigError('--base-url "http://h": its user name or password is not valid percent-encoding (write a % in them as %25)'),
    );
  });

  it('names what was typed when it is not an http(s) URL, without credentials or query', () => {
    expect(() => checkBaseUrl('htp:/x')).toThrow(new ConfigError('--base-url "htp:/x" is not an http:// or https:// URL (expected e.g. https://service.example)'));
    expect(() => checkBaseUrl('svc.example')).toThrow('--base-url "svc.example" is not a URL (expected e.g. https://service.example)');
    expect(() => checkBaseUrl('ftp://u:pw@h/?token=t')).toThrow('--base-url "ftp://h" is not an http:// or https:// URL');
    expect(() => checkBaseUrl('http://u:pw@h:99999/x?token=t')).toThrow(new ConfigError('--base-url "http://h:99999/x" is not a URL (expected e.g. https://service.example)'));
  });
});

describe('the embedded engine as a target', () => {
  it('is identified by its knowledge base and options; a changed knowledge base cannot be resumed', async () => {
    const dir = tempDir();
    const kb = join(dir, 'kb.jsonl');
    copyFileSync(SAMPLE_KB, kb);
    const target = await openTarget({ kb, floor: 42 });
    await target.close();
    expect(target.engine).toEqual({ kb: { path: kb, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }, floorThreshold: 42, suggestionThreshold: 50 });
    // resuming: the journal's options unless given again
    const again = await openTarget({ resumes: target.engine! });
    await again.close();
    expect(again.engine).toEqual(target.engine);
    writeFileSync(kb, '{"sequence_number": 1, "answer": "changed"}\n');
    await expect(openTarget({ resumes: target.engine! })).rejects.toThrow(/^cannot resume: the knowledge base changed since the run started \(journal .*kb\.jsonl sha256 [0-9a-f]{64}, now .*kb\.jsonl sha256 [0-9a-f]{64}\)/);
  });

  it('reads its knowledge base once: from a FIFO, the sha256 is the content\'s, the engine answers and the run is scored against that copy', async () => {
    const dir = tempDir();
    const kb = fifoOf(dir, SAMPLE_KB, 'kb-pipe'); // readable once, as --kb <(cat kb.jsonl) is; a second read would wait for ever
    const target = await openTarget({ kb });
    try {
      expect(target.engine!.kb).toEqual({ path: kb, sha256: createHash('sha256').update(readFileSync(SAMPLE_KB)).digest('hex') });
      const dataset = writeTemp(dir, 'q.csv', 'id,question,expected_label\nq1,how can I pay my bill?,payment_methods\n');
      const { report } = await runEvaluation({ dataset, baseUrl: target.baseUrl, agent: target.agent, agentCode: target.agentCode, knowledgeBase: target.knowledgeBase });
      expect(report.results.map((r) => r.outcome)).toEqual(['correct']);
      expect(report.metrics!.entries.find((e) => e.key === 'payment_methods')).toMatchObject({ category: 'payments', text: expect.stringMatching(/^You can pay by direct debit/) });
    } finally {
      await target.close();
    }
  });

  it('refuses the engine options with --base-url', async () => {
    await expect(openTarget({ baseUrl: 'http://h', agent: 'a', agentCode: 'c', suggestionThreshold: 60 })).rejects.toThrow(
      '--suggestion-threshold is an option of the embedded engine; it cannot be used with --base-url',
    );
  });

  it('a journal header names the knowledge base, floor and target that differ', () => {
    const header = (request: Partial<JournalHeader['request']>): JournalHeader => ({
      journal: 2,
      run: '0123456789abcdef',
      tool: { name: 'answer-eval', version: '1' },
      dataset: { path: 'd.csv', sha256: 'd', questions: 1 },
      request: { baseUrl: null, engine: null, agent: 'demo', language: 'en', guest: true, username: null, forceSubscription: false, output: 'json', timeoutMs: 1, retries: 0, maxResponseBytes: 1, shard: null, aliases: null, ...request },
      startedAt: '',
    });
    const engine = { kb: { path: 'kb.jsonl', sha256: 'aaa' }, floorThreshold: 38, suggestionThreshold: 50 };
    expect(headerDifferences(header({ engine }), header({ engine }))).toEqual([]);
    expect(headerDifferences(header({ engine }), header({ engine: { ...engine, kb: { path: 'other.jsonl', sha256: 'bbb' }, floorThreshold: 30 } }))).toEqual([
      'the knowledge base differs (journal kb.jsonl sha256 aaa, now other.jsonl sha256 bbb)',
      '--floor differs (journal 38, now 30)',
    ]);
    expect(headerDifferences(header({ engine }), header({ baseUrl: 'http://svc' }))).toEqual(['the target differs (journal the embedded engine on kb.jsonl, now the service "http://svc")']);
    // an older journal of a remote run has no engine field
    const { engine: _e, ...old } = header({ baseUrl: 'http://svc' }).request;
    expect(headerDifferences({ ...header({}), request: old }, header({ baseUrl: 'http://svc' }))).toEqual([]);
  });
});
