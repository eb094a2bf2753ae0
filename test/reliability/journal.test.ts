import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, InputError } from '../../src/errors.js';
import { readJournal } from '../../src/run/journal-read.js';
import { runEvaluation } from '../../src/run/run.js';
import { faultDataset, specServerFactory, type FaultPlan, type FaultTarget } from '../helpers/fault-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();
const targets: FaultTarget[] = [];
afterAll(() => Promise.all(targets.map((t) => t.close())));
const serve = async (plan: FaultPlan) => {
  const t = await specServerFactory(plan);
  targets.push(t);
  return t;
};
const base = { agent: 'a', agentCode: 'code-1234', backoff: { baseMs: 1, capMs: 5 }, retries: 0, maxConsecutiveErrors: 0 };
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

describe('the journal', () => {
  it('holds a header then one line per finished question, never the agent code', async () => {
    const t = await serve(() => ({ kind: 'ok' }));
    const dataset = writeTemp(dir, 'j1.jsonl', faultDataset(5));
    const out = join(dir, 'j1');
    await runEvaluation({ ...base, dataset, baseUrl: `${t.url}/?token=zzz`, journalDir: out, language: 'it' });
    const [header, ...rest] = lines(join(out, 'journal.jsonl')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(header).toMatchObject({ journal: 2, run: expect.stringMatching(/^[0-9a-f]{16}$/), tool: { name: 'answer-eval' }, dataset: { path: dataset, questions: 5 }, request: { baseUrl: t.url, agent: 'a', language: 'it' } });
    expect(rest.map((r) => r['id']).sort()).toEqual(['id0', 'id1', 'id2', 'id3', 'id4']);
    expect(readFileSync(join(out, 'journal.jsonl'), 'utf8')).not.toContain('code-1234');
  });

  it('drops a torn last line, and a damaged middle line (its question is asked again)', async () => {
    const out = join(dir, 'torn');
    const t = await serve(() => ({ kind: 'ok' }));
    const dataset = writeTemp(dir, 'torn.jsonl', faultDataset(3));
    await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out });
    const path = join(out, 'journal.jsonl');
    const whole = readFileSync(path, 'utf8');
    appendFileSync(path, '{"id":"id9","outc');
    const read = await readJournal(out);
    expect(read).toMatchObject({ tornLine: true, validBytes: Buffer.byteLength(whole) });
    expect([...read.results.keys()].sort()).toEqual(['id0', 'id1', 'id2']);
    writeFileSync(path, whole.replace('\n{', '\nnot json\n{'));
    const damaged = await readJournal(out);
    expect(damaged.dropped).toEqual([{ line: 2, why: expect.stringMatching(/^not JSON \(.*; cut short or damaged\)$/) }]);
    expect([...damaged.results.keys()].sort()).toEqual(['id0', 'id1', 'id2']);
    writeFileSync(path, whole.replace(/^[^\n]*/, 'not json'));
    await expect(readJournal(out)).rejects.toThrow(InputError);
  });

  it('resumes: asks only what is missing, cuts a torn line, writes the report in dataset order', async () => {
    const plan: FaultPlan = () => ({ kind: 'ok' });
    const t = await serve(plan);
    const dataset = writeTemp(dir, 'resume.jsonl', faultDataset(10));
    const out = join(dir, 'resume');
    const { report: full } = await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out }); // read before the journal is cut
    // keep the header and 4 results, plus a torn line
    const kept = lines(join(out, 'journal.jsonl')).slice(0, 5);
    writeFileSync(join(out, 'journal.jsonl'), `${kept.join('\n')}\n{"id":"id`);
    const keptIds = kept.slice(1).map((l) => (JSON.parse(l) as { id: string }).id);
    const before = t.requests().length;
    const { report } = await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out, resume: true });
    const asked = t.requests().slice(before).map((r) => `id${r.n}`);
    expect(asked.sort()).toEqual(full.results.map((r) => r.id).filter((id) => !keptIds.includes(id)).sort());
    expect(report.results.map((r) => r.id)).toEqual(full.results.map((r) => r.id));
    expect(report.results.map((r) => r.outcome)).toEqual(full.results.map((r) => r.outcome));
    expect(report.run).toMatchObject({ status: 'completed', resumed: { fromJournal: 4, asked: 6, rerun: null } });
    const after = lines(join(out, 'journal.jsonl'));
    expect(after).toHaveLength(11);
    for (const l of after) JSON.parse(l);
  });

  it('--rerun errors asks again only the questions that ended in error; the new result replaces the old', async () => {
    let healthy = false;
    const t = await serve((n) => (!healthy && n % 3 === 0 ? { kind: 'status', status: 503 } : { kind: 'ok' }));
    const dataset = writeTemp(dir, 'rerun.jsonl', faultDataset(9));
    const out = join(dir, 'rerun');
    const first = await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out });
    expect(first.report.summary.outcomes.error).toBe(3);
    healthy = true;
    const before = t.requests().length;
    const { report } = await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out, resume: true, rerun: 'errors' });
    expect(t.requests().slice(before).map((r) => r.n).sort()).toEqual([0, 3, 6]);
    expect(report.summary.outcomes.error).toBe(0);
    expect(report.results).toHaveLength(9);
    expect(report.run.resumed).toEqual({ fromJournal: 6, asked: 3, rerun: 'errors' });
    expect((await readJournal(out)).results.get('id3')?.error).toBe(false);
  });

  it('refuses to resume with another dataset or other request options, naming both values', async () => {
    const t = await serve(() => ({ kind: 'ok' }));
    const dataset = writeTemp(dir, 'refuse.jsonl', faultDataset(2));
    const out = join(dir, 'refuse');
    const first = await runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: out });
    const other = writeTemp(dir, 'refuse2.jsonl', faultDataset(3));
    const otherHash = (await runEvaluation({ ...base, dataset: other, baseUrl: t.url })).report.run.dataset.sha256;
    await expect(runEvaluation({ ...base, dataset: other, baseUrl: t.url, journalDir: out, resume: true, language: 'de' })).rejects.toThrow(
      new ConfigError(
        `cannot resume ${out}: the dataset differs (journal ${dataset} sha256 ${first.report.run.dataset.sha256}, now ${other} sha256 ${otherHash}); ` +
          '--language differs (journal "en", now "de")',
      ),
    );
    await expect(runEvaluation({ ...base, dataset, baseUrl: t.url, journalDir: join(dir, 'none'), resume: true })).rejects.toThrow(
      `--resume ${join(dir, 'none')}: no journal.jsonl in ${join(dir, 'none')} (expected the --out directory of an earlier run)`,
    );
  });
});
