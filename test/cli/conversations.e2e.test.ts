import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_CONVERSATIONS, SAMPLE_KB, startEngine, type RunningEngine } from '../../src/engine/index.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startFrontServer, type FrontServer } from '../helpers/front-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 15 from the command line: the sample conversations against the embedded engine with every report, the
// conversation gate, SIGKILL and --resume in the middle of a conversation, and validate on conversation files.
const dir = tempDir();
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const journalLines = (out: string): number => (existsSync(join(out, 'journal.jsonl')) ? readFileSync(join(out, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.endsWith('}')).length : 0);
const waitFor = async (cond: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('answer-eval run --dataset datasets/sample/conversations.jsonl (the embedded engine)', () => {
  const out = join(dir, 'sample');
  let res: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    res = await runCli(['run', '--dataset', SAMPLE_CONVERSATIONS, '-o', out, '-q']);
  });

  it('writes every report; the three dialogues meant to fail fail at their turn, with the reason', () => {
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('  conversations       15: 12 passed, 3 failed, 0 ended in error; pass rate 80.0% (95% CI 54.8%–93.0%, 12/15)\n');
    for (const file of ['report.json', 'report.html', 'junit.xml', 'summary.md', 'results.csv']) expect(existsSync(join(out, file)), file).toBe(true);
    const report = readReport(out);
    const failed = report.results.filter((r) => r.conversation!.at === r.conversation!.turn).map((r) => `${r.id} ${r.outcome}`);
    expect(failed).toEqual(['meter-3#3 wrong', 'outage-2#2 wrong', 'repeat-2#2 check_failed']);
  });

  it('junit.xml: one testcase per conversation, a failure naming the failing turn and why', () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toContain('<testsuite name="' + SAMPLE_CONVERSATIONS + '" tests="15" failures="3" errors="0"');
    expect(xml.match(/<testcase /g)).toHaveLength(15);
    expect(xml).toContain('<testcase classname="answer-eval.moving" name="move-1: I&apos;m moving house next month (3 turns)"');
    const failures = [...xml.matchAll(/<failure type="([^"]+)" message="([^"]+)"/g)].map((m) => `${m[1]} | ${m[2]}`);
    expect(failures).toEqual([
      'wrong | failed at turn 3 of 3 (&quot;it says 07321&quot;): wrong: expected label &quot;meter_reading_value&quot;; top-1 is #201 &quot;meter_reading_number&quot; (score 47.7); and expected dialog none; the reply leaves it in_progress',
      'wrong | failed at turn 2 of 2 (&quot;nah mate, the whole block is pitch black&quot;): wrong: expected label &quot;outage_area&quot;; top-1 is #22 &quot;late_payment&quot; (score 53.8)',
      'check_failed | failed at turn 2 of 2 (&quot;sorry, where&apos;s my customer number again?&quot;): check_failed: expected post-processed answer &quot;contains:already answer&quot;; the reply has none',
    ]);
  });

  it('results.csv: one row per turn with its conversation and turn; summary.md: the conversations', () => {
    const rows = readFileSync(join(out, 'results.csv'), 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\n');
    expect(rows[0]).toMatch(/^id,conversation,turn,user,conversation_verdict,question,/);
    expect(rows).toHaveLength(47);
    expect(rows[1]).toMatch(/^meter-1#1,meter-1,1,answer-eval-[0-9a-f]{8}-meter-1,passed,I need to send my meter reading,/);
    expect(rows.find((r) => r.startsWith('repeat-2#2,'))).toContain(',repeat-2,2,');
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toContain('**Conversations**: 12 of 15 conversations passed, 3 failed, 0 ended in error; pass rate **80.0%** (95% CI 54.8%–93.0%, 12/15).');
    expect(md).toContain('conversations break most at turn 2 (2 conversations)');
    expect(md).toContain('Turn checks: post-processed answer 75.0% (3/4) · dialog 97.6% (40/41)');
    expect(md).toMatch(/\| repeat-2 \| failed \| 2 of 2 \| sorry, where's my customer number again\? \| check\\_failed: /);
  });

  it('--min-conversation-pass-rate gates the run (exit 1 below it), and every report carries the verdict', async () => {
    const gated = join(dir, 'gated');
    const low = await runCli(['run', '-d', SAMPLE_CONVERSATIONS, '-o', gated, '-q', '--format', 'json,junit', '--min-conversation-pass-rate', '0.9']);
    expect(low.code).toBe(1);
    expect(low.stdout).toContain('gate FAILED: conversation pass rate 0.800 (12/15) < --min-conversation-pass-rate 0.9 (short by 0.100)');
    expect(readReport(gated).gates).toEqual({
      passed: false,
      results: [{ gate: '--min-conversation-pass-rate', metric: 'conversationPassRate', threshold: 0.9, value: 0.8, passed: false, message: expect.any(String) }],
    });
    expect(readFileSync(join(gated, 'junit.xml'), 'utf8')).toContain('<testcase classname="answer-eval.gate" name="--min-conversation-pass-rate"');
    const met = await runCli(['run', '-d', SAMPLE_CONVERSATIONS, '-o', join(dir, 'met'), '-q', '--format', 'json', '--min-conversation-pass-rate', '0.8']);
    expect(met.code).toBe(0);
    expect(met.stdout).toContain('gate passed: conversation pass rate 0.800 (12/15) >= --min-conversation-pass-rate 0.8');
  });
});

describe('SIGKILL in the middle of a conversation, then --resume', () => {
  let engine: RunningEngine;
  let front: FrontServer;
  // the front server holds move-1's second turn while `holding`: the run is killed with that conversation half asked
  const HELD = 'can you supply my new home too?';
  let holding = false;
  let release: (() => void) | undefined;
  beforeAll(async () => {
    engine = await startEngine({ kb: SAMPLE_KB });
    front = await startFrontServer(async (text) => {
      if (!holding || text !== HELD) return undefined;
      await new Promise<void>((resolve) => (release = resolve));
      return { reset: true };
    });
    front.target = { url: engine.url, code: engine.code };
  });
  afterAll(async () => {
    release?.();
    await front.close();
    await engine.close();
  });

  it('gives the outcomes of an uninterrupted run; the conversation cut off is asked again from its first turn as a new user', async () => {
    // the engine outlives the killed run (it runs here): it still holds the cut conversation's session
    const env = { ANSWER_AGENT_CODE: engine.code };
    const args = ['-d', SAMPLE_CONVERSATIONS, '--base-url', front.url, '--agent', engine.agent, '--format', 'json', '-q'];
    const whole = join(dir, 'whole');
    expect((await runCli(['run', ...args, '-o', whole], env)).code).toBe(0);

    const cut = join(dir, 'cut');
    holding = true;
    const killed = spawnCli(['run', ...args, '-o', cut, '-c', '2'], env);
    await waitFor(() => release !== undefined && journalLines(cut) > 1);
    const heldUser = front.received.findLast((q) => (q.body['question'] as { text: string }).text === HELD)!.body['username'];
    killed.child.kill('SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
    holding = false;
    release!();

    const journaled = journalLines(cut) - 1;
    expect(journaled).toBeGreaterThan(0);
    expect(readFileSync(join(cut, 'journal.jsonl'), 'utf8')).not.toContain('"id":"move-1#');
    const before = front.received.length;
    const resumed = await runCli(['run', '--resume', cut, '-q'], env);
    expect(resumed.code).toBe(0);
    const report = readReport(cut);
    expect(report.run).toMatchObject({ status: 'completed', resumed: { fromJournal: journaled, asked: 46 - journaled } });
    const outcomes = (r: Report) => r.results.map((x) => [x.id, x.outcome, x.conversation!.verdict, x.conversation!.at]);
    expect(outcomes(report)).toEqual(outcomes(readReport(whole)));

    const move = report.results.find((r) => r.id === 'move-1#1')!.conversation!.user;
    expect(move).not.toBe(heldUser);
    const askedAgain = front.received.slice(before).filter((q) => q.body['username'] === move).map((q) => (q.body['question'] as { text: string }).text);
    expect(askedAgain).toEqual(["I'm moving house next month", HELD, 'yes, we move in on the 1st of June']);
  });
});

describe('answer-eval validate on conversation files', () => {
  it('JSONL and CSV with conversation and turn columns: every problem at file:line, exit 2', async () => {
    const bad = writeTemp(dir, 'bad.jsonl', [
      JSON.stringify({ id: 'q1', question: 'how do I pay?' }),
      JSON.stringify({ id: 'c1', turns: [{ question: 'moving', expect_dialog: 'open' }] }),
      JSON.stringify({ id: 'c2', turns: [] }),
    ].join('\n'));
    const res = await runCli(['validate', '-d', bad]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe(
      `${bad}:2: error: conversation "c1" turn 1: expect_dialog is "open" (expected in_progress or none)\n` +
        `${bad}:3: error: conversation "c2": "turns" must be a list of one turn or more, e.g. [{"question": "I'm moving house"}, {"question": "next month"}]\n` +
        `${bad}: 1 question, 2 errors, 0 warnings\n`,
    );
    const csv = writeTemp(dir, 'bad.csv', 'conversation,turn,question,expect_post_processed\nmove,1,I\'m moving,\nmove,3,next month,re:(bad\n');
    const fromCsv = await runCli(['validate', '-d', csv]);
    expect(fromCsv.code).toBe(2);
    expect(fromCsv.stdout).toContain(`${csv}:3: error: conversation "move": turn 3 where turn 2 was expected (the rows of a conversation are consecutive, numbered 1, 2, 3... in order)\n`);
    expect(fromCsv.stdout).toMatch(new RegExp(`${csv.replace(/[.]/g, '\\.')}:3: error: conversation "move" turn 2: expect_post_processed "re:\\(bad" is not a valid regular expression`));
  });

  it('a file that mixes single questions and conversations', async () => {
    const mixed = writeTemp(dir, 'mixed.csv', 'id,conversation,turn,question,expected_label,expect_dialog\nq1,,,how can I pay my bill?,payment_methods,\n,move,1,I\'m moving house next month,moving_house,in_progress\n,move,2,can you supply my new home too?,moving_keep_supply,in_progress\n');
    const res = await runCli(['validate', '-d', mixed, '--kb', SAMPLE_KB]);
    expect(res.stdout).toBe(`${mixed}: 1 question, 1 conversation (2 turns), 0 errors, 0 warnings\n`);
    expect(res.code).toBe(0);
  });
});
