import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ANSWERS_PER_REPLY } from '../../src/client/response.js';
import { render } from '../../src/engine/render.js';
import { runCli } from '../helpers/cli.js';
import { questionOf, startRawServer, type RawReply } from '../helpers/raw-server.js';
import { item } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 41, item 3: a reply that multiplies. A text reply of `x\n\n` repeated (1 MiB, inside the default
// --max-response-bytes) was read as 349,515 answers, each stored, journaled and reported. No reply, in any output, may
// hold more answers than a ranked list can mean: beyond MAX_ANSWERS_PER_REPLY it is a protocol error, found without
// reading the whole list, and the run stays quick and small.

const dir = tempDir('answer-eval-round4-answers-');
const servers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const many = (n: number): Record<string, string>[] => Array.from({ length: n }, (_, i) => item(i + 1, 90 - i / 1000));
const TYPES = { json: 'application/json', xml: 'application/xml', html: 'text/html', text: 'text/plain' } as const;
type Output = keyof typeof TYPES;

/** What the service sends back for a question: its id names the output and the case. */
function replyOf(id: string): RawReply {
  const [output, size] = id.split('-') as [Output, string];
  const headers = { 'content-type': `${TYPES[output]}; charset=utf-8` };
  if (output === 'text') return { headers, body: size === 'mib' ? 'x\n\n'.repeat(349_525) : 'x\n\n'.repeat(size === 'over' ? MAX_ANSWERS_PER_REPLY + 1 : MAX_ANSWERS_PER_REPLY) };
  return { headers, body: render({ answers: many(size === 'over' ? MAX_ANSWERS_PER_REPLY + 1 : MAX_ANSWERS_PER_REPLY) }, output).body };
}

describe('answers per reply are bounded, in every output (issue 41, item 3)', () => {
  it('a reply of more answers than the bound is a protocol error naming it; one of the bound is read whole', async () => {
    const server = await startRawServer((req) => replyOf(questionOf(req)));
    servers.push(server);
    const ids = (['json', 'xml', 'html', 'text'] as const).flatMap((o) => [`${o}-over`, `${o}-bound`]).concat('text-mib');
    const rows = ids.map((id) => `${id},${id},answer 1,${id.split('-')[0]}`);
    const dataset = writeTemp(dir, 'q.csv', `id,question,expected_answer,output\n${rows.join('\n')}\n`);
    const out = join(dir, 'out');
    const started = performance.now();
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '-o', out, '--max-error-rate', '1', '-c', '2'], { ANSWER_AGENT_CODE: 'Zq8w-k3Vx-7pLm-Q2rT' });
    const ms = performance.now() - started;
    expect(res.stderr).not.toMatch(/internal error|RangeError/i);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { id: string; outcome: string; answers: unknown[]; error: { kind: string; message: string } | null }[] };
    const byId = new Map(report.results.map((r) => [r.id, r]));
    for (const id of ids.filter((i) => i.endsWith('-over') || i.endsWith('-mib'))) {
      const r = byId.get(id)!;
      expect(r.outcome, id).toBe('error');
      expect(r.error!.kind, id).toBe('protocol');
      expect(r.error!.message, id).toMatch(/^the reply holds more than 1,000 answers \(a ranked list is read up to 1,000/);
      expect(r.answers, id).toEqual([]);
    }
    for (const id of ids.filter((i) => i.endsWith('-bound'))) {
      expect(byId.get(id)!.error, id).toBeNull();
      expect(byId.get(id)!.answers.length, id).toBe(MAX_ANSWERS_PER_REPLY);
    }
    // the 1 MiB reply costs its reading, not 349,525 stored answers (before: 20 s and 600 MB a question, 180 MB written)
    expect(statSync(join(out, 'journal.jsonl')).size).toBeLessThan(8 * 1024 * 1024);
    expect(ms).toBeLessThan(30_000);
  });
});
