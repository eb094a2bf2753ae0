import { existsSync, readdirSync, readFileSync, readlinkSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// A user's regular expression cannot hang a run: `re:` runs in linear time, whatever the answer it meets, and
// SIGTERM ends a run within a few seconds in every phase, its journal intact and --resume finishing it.

const dir = tempDir('answer-eval-regex-');
const env = { ANSWER_AGENT_CODE: 'code-5521' };
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
const serve = async (...args: Parameters<typeof startSpecServer>): Promise<SpecServer> => {
  const s = await startSpecServer(...args);
  servers.push(s);
  return s;
};

const LONG = `${'a'.repeat(50_000)}!`;
/** Every question gets one answer whose label and text are 50,000 `a`s then `!`: the text catastrophic patterns choke on. */
const longAnswer = () => ({ body: { answers: [item(1, 90, { label: LONG, answer: LONG })] } });
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const journalLines = (out: string): string[] => {
  const path = join(out, 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.endsWith('}')) : [];
};
const waitFor = async (cond: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
const csv = (rows: string[][]): string => `${rows.map((r) => r.join(',')).join('\n')}\n`;
/** Whether process `pid` holds `path` open (Linux: /proc). */
const holdsOpen = (pid: number, path: string): boolean => {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // gone
  }
};

// the run's modules loaded before any clock starts: the times below are the run's, not the loading of its code
beforeAll(async () => {
  await import('../../src/job/run.js');
}, 60_000);

describe('regular expressions from a dataset (built CLI)', () => {
  it('catastrophic patterns against a 50,001-character answer: the run, rescore and export finish at once and agree', async () => {
    const server = await serve(longAnswer);
    const dataset = writeTemp(dir, 'redos.csv', csv([
      ['id', 'question', 'expected_label', 'expected_answer'],
      ['nested', 'q1', 're:^(a+)+$', ''],
      ['alternation', 'q2', '', 're:(a|aa)+$'],
      ['words', 'q3', 're:^(\\w+\\s?)*$', ''],
      ['star-of-star', 'q4', 're:^(a*)*b', ''],
      ['repeat', 'q5', 're:(.*a){12}x', ''],
      ['matches', 'q6', 're:^(a+)+!$', 're:a{400}!'],
    ]));
    const out = join(dir, 'redos');
    const started = performance.now();
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet'], env, 60_000);
    const took = performance.now() - started;
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(took).toBeLessThan(15_000); // a backtracking engine would not finish (^(a+)+$ tries 2^50,000 ways); measured 1-2 s
    const report = readReport(out);
    const outcomes = Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
    expect(outcomes).toEqual({ nested: 'wrong', alternation: 'wrong', words: 'wrong', 'star-of-star': 'wrong', repeat: 'wrong', matches: 'correct' });

    const again = join(dir, 'redos-rescored');
    const rescored = await runCli(['rescore', out, '--out', again], {}, 60_000);
    expect(rescored.stderr).toBe('');
    expect(rescored.code).toBe(0);
    expect(readReport(again).results.map((r) => [r.id, r.outcome])).toEqual(report.results.map((r) => [r.id, r.outcome]));

    const trec = join(dir, 'redos-trec');
    const exported = await runCli(['export', '--from', out, '--format', 'trec', '--out', trec], {}, 60_000);
    expect(exported.code).toBe(0);
    expect(readFileSync(join(trec, 'qrels.trec'), 'utf8')).toMatch(/^matches 0 1 1$/m);
  });

  it("a reply's number of 900,000 digits and a letter is a protocol error at once (a backtracking check took hours)", async () => {
    const digits = `${'1'.repeat(900_000)}x`;
    const server = await serve(() => ({ body: JSON.stringify({ answers: [{ ...item(1, 90), answer_score: digits }] }) }));
    const dataset = writeTemp(dir, 'digits.csv', csv([['id', 'question', 'expected_label'], ['d1', 'q1', 'label-1'], ['d2', 'q2', 'label-1']]));
    const started = performance.now();
    const res = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', join(dir, 'digits'), '--quiet', '--retries', '0'], env, 60_000);
    expect(performance.now() - started).toBeLessThan(15_000); // measured ~1.5 s; the old check: 9 s at 40,000 digits, growing with the square
    expect(res.code).toBe(3); // every question ended in error
    const report = readReport(join(dir, 'digits'));
    for (const r of report.results) expect(r.error?.message).toMatch(/^answers\[0\]\.answer_score: expected a number such as "42", got "1{20,}… \(cut\)/);
  });

  it('a pattern that needs backtracking is a file:line error at validate and run, saying why and what to write instead', async () => {
    const server = await serve(longAnswer);
    const dataset = writeTemp(dir, 'backtracking.csv', csv([
      ['id', 'question', 'expected_label'],
      ['ok', 'q1', 're:^pay(ment)?s?$'],
      ['backref', 'q2', 're:^(a+)\\1$'],
      ['lookahead', 'q3', 're:^(?!.*refund)'],
      ['lookbehind', 'q4', 're:(?<=card )payment'],
      ['count', 'q5', 're:a{5000}'],
      ['syntax', 'q6', 're:(oops'],
    ]));
    const validated = await runCli(['validate', '-d', dataset]);
    expect(validated.code).toBe(2);
    const lines = validated.stdout.split('\n');
    expect(lines).toContain(`${dataset}:3: error: expected_label "re:^(a+)\\1$" cannot be run: it uses a backreference (\\1), and answer-eval runs regular expressions in linear time (RE2), so that no pattern can hang a run; write the repeated text out, or list the cases as alternatives (re:^(yes|no)$)`);
    expect(lines.find((l) => l.startsWith(`${dataset}:4: error: expected_label "re:^(?!.*refund)" cannot be run: it uses a lookahead ((?!...)`))).toBeDefined();
    expect(lines.find((l) => l.startsWith(`${dataset}:5: error: expected_label "re:(?<=card )payment" cannot be run: it uses a lookbehind ((?<=...)`))).toBeDefined();
    expect(lines.find((l) => l.startsWith(`${dataset}:6: error: expected_label "re:a{5000}" cannot be run: it repeats more than 1000 times ({5000}`))).toBeDefined();
    expect(lines.find((l) => l.startsWith(`${dataset}:7: error: expected_label "re:(oops" is not a valid regular expression: `))).toBeDefined();
    expect(lines.some((l) => l.startsWith(`${dataset}:2:`))).toBe(false);

    const run = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', join(dir, 'refused'), '--quiet'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${dataset}:3: expected_label "re:^(a+)\\1$" cannot be run: it uses a backreference (\\1)`);
    expect(server.received).toHaveLength(0);
  });

  it('SIGTERM while asking ends the run within a few seconds, the journal intact; --resume finishes it', async () => {
    let delayMs = 100; // slow while the run is cut; the resumed run need not wait
    const server = await serve(() => ({ ...longAnswer(), delayMs }));
    const rows = Array.from({ length: 60 }, (_, n) => [`q${n}`, `question ${n}`, n % 2 === 0 ? 're:^(a+)+$' : 're:^(a|aa)+!$']);
    const dataset = writeTemp(dir, 'term.csv', csv([['id', 'question', 'expected_label'], ...rows]));
    const out = join(dir, 'term');
    const run = spawnCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '-c', '2', '--quiet'], env);
    await waitFor(() => journalLines(out).length >= 6);
    const sent = performance.now();
    run.child.kill('SIGTERM');
    const res = await run.exited;
    const took = performance.now() - sent;
    expect(took).toBeLessThan(5_000); // measured ~0.2 s: the grace lets the two requests in flight finish
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`answer-eval: interrupted by SIGTERM; continue with: answer-eval run --resume ${out}\n`);
    const journaled = journalLines(out).slice(1);
    for (const line of journaled) expect(() => JSON.parse(line)).not.toThrow();
    expect(readReport(out).run.status).toBe('partial');

    delayMs = 0;
    const resumed = await runCli(['run', '--resume', out, '--quiet'], env, 60_000);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const report = readReport(out);
    expect(report.run).toMatchObject({ status: 'completed', resumed: { fromJournal: journaled.length, asked: 60 - journaled.length } });
    expect(report.results.map((r) => r.outcome)).toEqual(rows.map((_, n) => (n % 2 === 0 ? 'wrong' : 'correct')));
  });

  it('SIGTERM while the dataset is checked stops there: nothing sent, exit 3, at once', async () => {
    const server = await serve(longAnswer);
    const rows = Array.from({ length: 200_000 }, (_, n) => `q${n},question number ${n},re:^(a+)+$`);
    const dataset = writeTemp(dir, 'big.csv', `id,question,expected_label\n${rows.join('\n')}\n`);
    const out = join(dir, 'checking');
    const run = spawnCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet'], env);
    // checking 200,000 rows takes a second or more: under way once the run holds its lock and the dataset open
    await expect.poll(() => existsSync(join(out, 'answer-eval.lock')) && holdsOpen(run.child.pid!, dataset), { timeout: 20_000, interval: 10 }).toBe(true);
    const sent = performance.now();
    run.child.kill('SIGTERM');
    const res = await run.exited;
    expect(performance.now() - sent).toBeLessThan(3_000);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('answer-eval: interrupted by SIGTERM while the dataset was checked: nothing was sent; run the command again\n');
    expect(server.received).toHaveLength(0);
  });

  it('SIGTERM while the reports are written ends the process at once; --resume writes them without asking again', async () => {
    // answers of 5,000 characters: the reports take long enough to write (some 0.5 s) for the SIGTERM to land in it,
    // as those of 5,000 short answers do, and their questions are asked in a fraction of the time
    const server = await serve(() => ({ body: { answers: [item(1, 90, { answer: 'a'.repeat(5_000) })] } }));
    const count = 300;
    const rows = Array.from({ length: count }, (_, n) => `q${n},question ${n},re:^label-(1|2)$`);
    const dataset = writeTemp(dir, 'writing.csv', `id,question,expected_label\n${rows.join('\n')}\n`);
    const out = join(dir, 'writing');
    const run = spawnCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '-c', '16', '--quiet'], env, 120_000);
    await waitFor(() => existsSync(out), 20_000);
    let sent = 0;
    const watcher = watch(out, (_, name) => {
      if (sent === 0 && /^(report|results|junit|summary)\..*\.tmp$/.test(String(name))) { // a report's, not the options kept at the start
        sent = performance.now();
        run.child.kill('SIGTERM');
      }
    });
    const res = await run.exited;
    watcher.close();
    expect(sent).toBeGreaterThan(0);
    expect(performance.now() - sent).toBeLessThan(2_000);
    expect(res.signal).toBe('SIGTERM');
    expect(journalLines(out)).toHaveLength(count + 1);

    const asked = server.received.length;
    const resumed = await runCli(['run', '--resume', out, '--quiet'], env, 120_000);
    expect(resumed.code).toBe(0);
    expect(server.received).toHaveLength(asked);
    const report = readReport(out);
    expect(report.run).toMatchObject({ status: 'completed', resumed: { fromJournal: count, asked: 0 } });
    expect(report.summary.outcomes.correct).toBe(count);
  }, 120_000);
});
