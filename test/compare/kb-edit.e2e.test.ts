import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Emulates the embedded engine: a small knowledge base, answers ranked by word overlap.
// The lead adds the variant against the real embedded engine once it is merged.
type Kb = Record<number, string>;
const KB: Kb = {
  1: 'pay bill invoice',
  2: 'meter reading electricity',
  3: 'opening hours office',
  4: 'contact phone email',
  5: 'move house address',
};
const EDITED: Kb = { ...KB, 3: 'opening hours phone contact' };

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3);

/** Ranked answers: score = 100 * shared words / words of the entry; entries sharing nothing are left out. */
function answer(kb: Kb, question: string): { seq: number; score: number }[] {
  const asked = new Set(words(question));
  return Object.entries(kb)
    .map(([seq, text]) => ({ seq: Number(seq), score: Math.round((100 * words(text).filter((w) => asked.has(w)).length) / words(text).length) }))
    .filter((a) => a.score > 0)
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}

const QUESTIONS: [string, string, number][] = [
  ['q1', 'how do I pay my bill', 1],
  ['q2', 'submit a meter reading', 2],
  ['q3', 'office opening hours', 3],
  ['q4', 'phone number to contact', 4],
  ['q5', 'change my address after a move', 5],
  ['q6', 'what are the hours to contact by phone', 4],
  ['q7', 'is the office open on the weekend', 3],
  ['q8', 'when is the office phone line open', 4],
];

const dir = tempDir();
let kb: Kb = KB;
let server: SpecServer;

beforeAll(async () => {
  server = await startSpecServer((req) => {
    const text = (req.body['question'] as { text: string }).text;
    return { body: { answers: answer(kb, text).map((a) => item(a.seq, a.score)) } };
  });
});
afterAll(() => server.close());

describe('one knowledge-base entry edited between two runs', () => {
  it('the compare report names exactly the questions the edit affected', async () => {
    const dataset = writeTemp(dir, 'kb.csv', `id,question,expected_sequence\n${QUESTIONS.map(([id, q, e]) => `${id},${q},${e}`).join('\n')}\n`);
    const env = { ANSWER_AGENT_CODE: 'code' };
    const common = ['run', '-d', dataset, '--base-url', server.url, '--agent', 'demo', '--format', 'json', '-c', '2', '--resamples', '200'];
    kb = KB;
    expect((await runCli([...common, '-o', join(dir, 'before')], env)).code).toBe(0);
    kb = EDITED;
    const after = await runCli([...common, '-o', join(dir, 'after'), '--baseline', join(dir, 'before', 'report.json')], env);
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);

    // affected = the top-1 answer or its score changed, computed from the two knowledge bases directly
    const top = (k: Kb, q: string) => JSON.stringify(answer(k, q)[0] ?? null);
    const affected = QUESTIONS.filter(([, q]) => top(KB, q) !== top(EDITED, q)).map(([id]) => id);
    expect(affected).toEqual(['q3', 'q6', 'q7', 'q8']);

    const c = ComparisonSchema.parse(JSON.parse(readFileSync(join(dir, 'after', 'compare.json'), 'utf8')));
    const ids = (xs: { id: string }[]) => xs.map((x) => x.id);
    const named = [...c.questions.broken, ...c.questions.fixed, ...c.questions.top1Changed, ...c.questions.drift].map((q) => q.id);
    expect([...new Set(named)].sort()).toEqual(affected);
    expect(ids(c.questions.broken)).toEqual(['q6', 'q7']); // entry 3 now wins "contact by phone"; "office" no longer finds it
    expect(ids(c.questions.fixed)).toEqual(['q8']); // "phone" no longer ties entry 3 with entry 4
    expect(ids(c.questions.drift)).toEqual(['q3']); // same answer, lower score (one shared word fewer)
    expect(c.questions.drift[0]!.scoreDelta).toBe(50 - 100);
    expect(c.counts).toMatchObject({ added: 0, removed: 0, errors: 0, changed: 0, top1Changed: 0 });
    expect(after.stdout).toContain('broken: q6 (correct -> wrong)');
  });
});
