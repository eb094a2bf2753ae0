import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../src/compare/schema.js';
import { SAMPLE_KB } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
const EDITED_SEQ = 40; // power_outage: its examples are replaced by one unrelated phrasing

function editedKb(): string {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { sequence_number: number; examples: string[] };
    return entry.sequence_number === EDITED_SEQ ? JSON.stringify({ ...entry, examples: ['electricity supply interrupted'] }) : line;
  });
  return writeTemp(dir, 'kb-edited.jsonl', `${edited.join('\n')}\n`);
}

const read = (path: string): Report => ReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
const top1Of = (r: Report['results'][number]) => {
  const top = r.top1Index === null ? undefined : r.answers[r.top1Index];
  return JSON.stringify([r.outcome, top?.sequence_number, top?.answer_score]);
};

describe('the sample set against the embedded engine, one knowledge-base entry edited', () => {
  it('the compare report names exactly the questions the edit affected', async () => {
    const before = join(dir, 'before');
    const after = join(dir, 'after');
    expect((await runCli(['run', '-o', before, '--format', 'json'])).code).toBe(0);
    const res = await runCli(['run', '--kb', editedKb(), '-o', after, '--format', 'json', '--baseline', join(before, 'report.json')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);

    // affected, from the two reports: the outcome, top-1 answer or its score changed. Editing one entry also
    // moves other scores a little (BM25's document frequencies and the classifier are global): that is drift.
    const a = read(join(before, 'report.json'));
    const b = read(join(after, 'report.json'));
    const byId = new Map(a.results.map((r) => [r.id, r]));
    const affected = b.results.filter((r) => top1Of(r) !== top1Of(byId.get(r.id)!)).map((r) => r.id);

    const c = ComparisonSchema.parse(JSON.parse(readFileSync(join(after, 'compare.json'), 'utf8')));
    const named = [...c.questions.broken, ...c.questions.fixed, ...c.questions.top1Changed, ...c.questions.drift].map((q) => q.id);
    expect([...new Set(named)].sort()).toEqual([...affected].sort());
    expect(c.questions.broken.length).toBeGreaterThan(0);
    // the questions that expect the edited entry are among them
    const expecting = a.results.filter((r) => r.expected.sequence?.includes(String(EDITED_SEQ))).map((r) => r.id);
    expect(expecting.length).toBeGreaterThan(0);
    for (const id of expecting) expect(named).toContain(id);
    expect(c.counts).toMatchObject({ added: 0, removed: 0, errors: 0 });
  });
});
