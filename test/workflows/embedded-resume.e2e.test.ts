import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_KB, SAMPLE_QUESTIONS } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 12 (b): an embedded run killed with SIGKILL half way, then `--resume DIR` alone: the engine restarts on
// the same knowledge base and options, no agent code is asked for, and the outcomes are those of a whole run.
const dir = tempDir();
const kb = join(dir, 'kb.jsonl');
copyFileSync(SAMPLE_KB, kb);

// 339 questions: the sample set three times over, under new ids
const [header, ...rows] = readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n');
const dataset = writeTemp(dir, 'many.csv', `${[header, ...[1, 2, 3].flatMap((k) => rows!.map((r) => r.replace(/^q/, `r${k}-`)))].join('\n')}\n`);
const TOTAL = 339;

const journalLines = (out: string): number => (existsSync(join(out, 'journal.jsonl')) ? readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.endsWith('}')).length : 0);
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const outcomes = (r: Report) => r.results.map((x) => ({ id: x.id, outcome: x.outcome, top1: x.top1Index === null ? null : x.answers[x.top1Index]!.sequence_number, score: x.top1Index === null ? null : x.answers[x.top1Index]!.answer_score }));
const waitFor = async (cond: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('resuming an embedded run', () => {
  it('SIGKILL half way, then --resume without an agent code: the same outcomes as an uninterrupted run; a changed knowledge base is refused', async () => {
    // the uninterrupted run in this process, alongside the run that is killed
    const whole = join(dir, 'whole');
    const uninterrupted = runCli(['run', '-d', dataset, '--kb', kb, '--floor', '40', '-o', whole, '--format', 'json', '-q']);

    // --rps slows the run down (it changes no outcome) so it can be killed half way
    const cut = join(dir, 'cut');
    const killed = spawnCli(['run', '-d', dataset, '--kb', kb, '--floor', '40', '-o', cut, '--format', 'json', '-q', '--rps', '120', '-c', '2']);
    await waitFor(() => journalLines(cut) > TOTAL / 2);
    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    const journaled = journalLines(cut) - 1;
    expect(journaled).toBeGreaterThanOrEqual(TOTAL / 2 - 1);
    expect(journaled).toBeLessThan(TOTAL);
    const head = JSON.parse(readFileSync(join(cut, 'journal.jsonl'), 'utf8').split('\n')[0]!) as { request: { baseUrl: unknown; engine: unknown } };
    // the run's identity is the knowledge base and the engine's options, not its ephemeral URL
    expect(head.request.baseUrl).toBeNull();
    expect(head.request.engine).toEqual({ kb: { path: kb, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }, floorThreshold: 40, suggestionThreshold: 50 });
    expect((await uninterrupted).code).toBe(0); // before the knowledge base changes below

    // the knowledge base changed since: refused, naming both sha256 values, nothing asked
    const original = readFileSync(kb, 'utf8');
    writeFileSync(kb, original.replace('"how can I pay my bill"', '"how can I pay my invoice"'));
    const refused = await runCli(['run', '--resume', cut, '-q']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      // after the note that it took over the lock the killed run left
      new RegExp(`\\nanswer-eval: cannot resume: the knowledge base changed since the run started \\(journal ${kb} sha256 [0-9a-f]{64}, now ${kb} sha256 [0-9a-f]{64}\\)`),
    );
    expect(journalLines(cut) - 1).toBe(journaled);
    writeFileSync(kb, original);

    // no ANSWER_AGENT_CODE (runCli unsets it), no --kb, no --floor: all from the journal
    const resumed = await runCli(['run', '--resume', cut, '--format', 'json', '-q']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const report = readReport(cut);
    expect(report.run).toMatchObject({ status: 'completed', embeddedEngine: true, resumed: { fromJournal: journaled, asked: TOTAL - journaled } });
    expect(report.run.engine).toEqual(readReport(whole).run.engine);
    expect(outcomes(report)).toEqual(outcomes(readReport(whole)));
    expect(report.summary.outcomes).toEqual(readReport(whole).summary.outcomes);

    // another floor than the journal's is refused too
    const otherFloor = await runCli(['run', '--resume', cut, '--floor', '30', '-q']);
    expect(otherFloor.code).toBe(2);
    expect(otherFloor.stderr).toContain('--floor differs (journal 40, now 30)');
  });
});
