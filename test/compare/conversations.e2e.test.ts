import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeLineSchema, ComparisonSchema, type Comparison } from '../../src/compare/schema.js';
import { SAMPLE_CONVERSATIONS, SAMPLE_KB } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 15, "compare of two runs in which one dialogue broke": the sample conversations asked twice of the embedded
// engine, the second time with one dialogue step of the knowledge base changed (entry 241, smart_meter_booked, the
// follow-up that books the smart meter, loses its phrasings), so smart-meter-1 breaks at its third turn.
const dir = tempDir();
const FOLLOW_UP = 241;

function kbWithFollowUpChanged(): string {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { sequence_number: number; examples: string[] };
    return entry.sequence_number === FOLLOW_UP ? JSON.stringify({ ...entry, examples: ['the installer confirmed the slot'] }) : line;
  });
  return writeTemp(dir, 'kb-follow-up.jsonl', `${edited.join('\n')}\n`);
}

const before = join(dir, 'before');
const after = join(dir, 'after');
const readJson = <T>(path: string, parse: (v: unknown) => T): T => parse(JSON.parse(readFileSync(path, 'utf8')));
const report = (out: string): Report => readJson(join(out, 'report.json'), (v) => ReportSchema.parse(v));
const comparison = (out: string): Comparison => readJson(join(out, 'compare.json'), (v) => ComparisonSchema.parse(v));
const verdicts = (r: Report): Map<string, string> => new Map(r.results.flatMap((t) => (t.conversation ? [[t.conversation.id, t.conversation.verdict] as const] : [])));
/** Nothing a user should not see: no Node warning, no stack trace. */
const clean = (res: CliResult): void => {
  expect(res.stderr).not.toMatch(/Warning|\n\s+at [^\n]*:\d+:\d+/);
  expect(res.stdout).not.toMatch(/\n\s+at [^\n]*:\d+:\d+/);
};

let pr: CliResult;
beforeAll(async () => {
  const main = await runCli(['run', '-d', SAMPLE_CONVERSATIONS, '-o', before, '--format', 'json', '-q']);
  expect(main.stderr).toBe('');
  expect(main.code).toBe(0);
  // the change, checked against the baseline as a pull request would be
  pr = await runCli(['run', '-d', SAMPLE_CONVERSATIONS, '--kb', kbWithFollowUpChanged(), '-o', after, '--format', 'json,md', '-q', '--baseline', join(before, 'report.json'), '--fail-on', 'regression']);
}, 120_000);

describe('compare of two runs of the sample conversations in which one dialogue broke (embedded engine)', () => {
  it('only smart-meter-1 changed verdict between the runs: passed, then failed at turn 3', () => {
    const [a, b] = [verdicts(report(before)), verdicts(report(after))];
    expect(a.size).toBe(15);
    expect([...a].filter(([id, v]) => b.get(id) !== v)).toEqual([['smart-meter-1', 'passed']]);
    expect(b.get('smart-meter-1')).toBe('failed');
  });

  it('run --baseline --fail-on regression exits 1, compare.json naming exactly that conversation, broken at turn 3', () => {
    clean(pr);
    expect(pr.code).toBe(1);
    const c = comparison(after);
    expect(c.schemaVersion).toBe('3.4');
    expect(c.conversations!.counts).toEqual({ common: 15, added: 0, removed: 0, changed: 0, broken: 1, brokenByError: 0, fixed: 0, quarantined: 0 });
    expect(c.conversations!.broken).toEqual([
      {
        id: 'smart-meter-1',
        question: 'can I get a smart meter?',
        tags: ['meters', 'en'],
        base: { verdict: 'passed', at: null, turns: 3 },
        head: { verdict: 'failed', at: 3, turns: 3 },
        turn: { turn: 3, question: 'next Tuesday', base: 'correct', head: 'wrong', reason: expect.stringMatching(/^expected label "smart_meter_booked"; top-1 is #\d+ /) },
      },
    ]);
    expect(c.conversations!.fixed).toEqual([]);
    expect(c.conversations!.passRate).toEqual({ base: 12 / 15, head: 11 / 15, delta: 11 / 15 - 12 / 15 });
    expect(c.gates!.results.map((g) => [g.gate, g.value, g.passed])).toEqual([
      ['--fail-on regression', 1, false],
      ['--fail-on regression (conversations)', 1, false],
    ]);
    expect(c.gates!.results[1]!.message).toBe('1 broken conversation (smart-meter-1 at turn 3) with --fail-on regression');
  });

  it('compare A B says so in every output and exits 1; every listed conversation is in changes.jsonl', async () => {
    const out = join(dir, 'compare');
    const res = await runCli(['compare', join(before, 'report.json'), join(after, 'report.json'), '-o', out, '--fail-on', 'regression']);
    clean(res);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('  conversations: 15 common, 0 added, 0 removed, 0 changed (a turn edited, added or removed); 1 broken, 0 fixed; pass rate 80.0% -> 73.3% (−6.7 pts)\n');
    expect(res.stdout).toMatch(/\n {2}broken conversation: smart-meter-1 at turn 3 \(correct -> wrong\): expected label "smart_meter_booked"; /);
    expect(res.stdout).toContain('  gate FAILED: 1 broken conversation (smart-meter-1 at turn 3) with --fail-on regression\n');
    expect(res.stderr).toContain('1 broken conversation (smart-meter-1 at turn 3) with --fail-on regression');
    expect(comparison(out).conversations).toEqual(comparison(after).conversations);

    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    // (a turn id's `#3` is escaped and kept from becoming an issue reference, as every id in compare.md)
    expect(md.split('\n')[0]).toBe('**❌ answer-eval: 2 of 2 gates FAILED**: 1 broken question (smart-meter-1\\#\u200b3) with --fail-on regression; 1 broken conversation (smart-meter-1 at turn 3) with --fail-on regression');
    expect(md).toContain('### Broken conversations: passed, now failed or in error (1)');
    expect(md).toMatch(/\n\| smart-meter-1 \| passed → failed at turn 3 \| turn 3 \(correct → wrong\) \| next Tuesday \| expected label "smart\\_meter\\_booked"; /);
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).toContain('<h3>Conversations</h3><div class="big"><span class="bad">1</span> <small>broken</small></div>');
    expect(html).toContain('<td class="id" data-label="conversation">smart-meter-1<div class="sub">meters · en · 3 turns</div></td>');
    const lines = readFileSync(join(out, 'changes.jsonl'), 'utf8').trimEnd().split('\n').map((l) => ChangeLineSchema.parse(JSON.parse(l)));
    expect(lines.filter((l) => l.class.startsWith('conversation')).map((l) => [l.class, l.id])).toEqual([['conversationBroken', 'smart-meter-1']]);
  });

  it('the other way round, the dialogue is fixed at the same turn, and --fail-on regression passes (exit 0)', async () => {
    const out = join(dir, 'reverse');
    const res = await runCli(['compare', join(after, 'report.json'), join(before, 'report.json'), '-o', out, '--fail-on', 'regression']);
    clean(res);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('  fixed conversation: smart-meter-1 at turn 3 (wrong -> correct)\n');
    expect(res.stdout).toContain('  gate passed: no broken conversation\n');
    const c = comparison(out).conversations!;
    expect(c.counts).toMatchObject({ broken: 0, fixed: 1 });
    expect(c.fixed.map((f) => [f.id, f.base.verdict, f.base.at, f.head.verdict, f.turn.turn, f.turn.base, f.turn.head, f.turn.reason])).toEqual([['smart-meter-1', 'failed', 3, 'passed', 3, 'wrong', 'correct', null]]);
  });
});
