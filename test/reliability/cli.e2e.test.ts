import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { faultDataset, specServerFactory, type FaultPlan, type FaultTarget } from '../helpers/fault-server.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { filesUnder, tempDir, writeTemp } from '../helpers/tmp.js';
import { stderrHolds } from '../helpers/until.js';

const SECRET = 'SeCrEt-Agent-Code-7731';
const env = { ANSWER_AGENT_CODE: SECRET };
const dir = tempDir();
const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((c) => c())));
const serve = async (plan: FaultPlan): Promise<FaultTarget> => {
  const t = await specServerFactory(plan);
  closers.push(() => t.close());
  return t;
};

const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const journalLines = (out: string): string[] => {
  const path = join(out, 'journal.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((l) => l.endsWith('}')) : [];
};
const waitFor = async (cond: () => boolean, timeoutMs = 15_000): Promise<void> => {
  const until = performance.now() + timeoutMs;
  while (!cond()) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};
/** What must come out the same however the run was cut. */
const outcomes = (r: Report) =>
  r.results.map((x) => ({ id: x.id, outcome: x.outcome, attempts: x.attempts, error: x.error && { kind: x.error.kind, status: x.error.status }, top1: x.top1Index, seqs: x.answers.map((a) => a.sequence_number) }));

describe('interrupted runs (built CLI)', () => {
  it('SIGKILL at about half way, then --resume: the same per-question outcomes as an uninterrupted run', async () => {
    // deterministic per question, whatever the attempt, so a question cut in flight ends the same when asked again
    const plan: FaultPlan = (n) => (n % 10 === 0 ? { kind: 'status', status: 503 } : n % 7 === 0 ? { kind: 'malformed' } : { kind: 'slow', delayMs: 25 });
    const t = await serve(plan);
    const dataset = writeTemp(dir, 'kill.jsonl', faultDataset(60));
    const args = (out: string) => ['run', '-d', dataset, '--base-url', t.url, '--agent', 'demo', '-o', out, '--format', 'json', '-c', '2', '--retries', '1', '--quiet'];

    // the uninterrupted run in this process, alongside the run that is killed
    const whole = join(dir, 'whole');
    const uninterrupted = runCli(args(whole), env);

    const cut = join(dir, 'cut');
    const killed = spawnCli(args(cut), env);
    await waitFor(() => journalLines(cut).length >= 31);
    killed.child.kill('SIGKILL');
    const { signal } = await killed.exited;
    expect(signal).toBe('SIGKILL');
    expect(existsSync(join(cut, 'report.json'))).toBe(false);
    appendFileSync(join(cut, 'journal.jsonl'), '{"id":"id4'); // as if the kill tore the last line
    const journaled = journalLines(cut).length - 1;
    expect(journaled).toBeGreaterThanOrEqual(30);
    expect(journaled).toBeLessThan(60);
    expect((await uninterrupted).code).toBe(0);

    const before = t.requests().length;
    const resumed = await runCli(['run', '--resume', cut, '--format', 'json', '-c', '2', '--retries', '1', '--quiet'], env);
    // the killed run could not remove its lock: the resumed run takes it over, saying so
    expect(resumed.stderr).toMatch(new RegExp(`^answer-eval: ${join(cut, 'answer-eval.lock')}: took over the lock of pid ${killed.child.pid} \\(since [^)]+\\), which is no longer running\n(answer-eval: warning: \\d+ of \\d+ questions \\([\\d.]+%\\) ended in error: [^\\n]*\\n)?$`));
    expect(resumed.code).toBe(0);
    const report = readReport(cut);
    expect(report.run).toMatchObject({ status: 'completed', resumed: { fromJournal: journaled, asked: 60 - journaled, rerun: null } });
    expect(outcomes(report)).toEqual(outcomes(readReport(whole)));
    const { latencyMs: _a, ...summary } = report.summary;
    const { latencyMs: _b, ...wholeSummary } = readReport(whole).summary;
    expect(summary).toEqual(wholeSummary);
    // the resumed run asked only what the journal lacked
    const askedAgain = new Set(t.requests().slice(before).map((r) => r.n));
    expect(askedAgain.size).toBe(60 - journaled);
  });

  it('SIGINT: stops sending, lets requests in flight finish, writes partial reports, exits 3', async () => {
    const t = await serve(() => ({ kind: 'slow', delayMs: 250 }));
    const dataset = writeTemp(dir, 'int.jsonl', faultDataset(30));
    const out = join(dir, 'int');
    const run = spawnCli(['run', '-d', dataset, '--base-url', t.url, '--agent', 'demo', '-o', out, '--format', 'json', '-c', '3', '--quiet'], env);
    await waitFor(() => journalLines(out).length >= 3);
    run.child.kill('SIGINT');
    const res = await run.exited;
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('answer-eval: SIGINT: stopping; waiting up to 2000 ms for requests in flight (SIGINT again exits at once)');
    expect(res.stderr).toContain(`answer-eval: interrupted by SIGINT; continue with: answer-eval run --resume ${out}\n`);
    const report = readReport(out);
    expect(report.run).toMatchObject({ status: 'partial', stopReason: `interrupted by SIGINT; continue with: answer-eval run --resume ${out}` });
    expect(report.results.length).toBeLessThan(30);
    // every request sent was seen through: answered and journaled, none lost
    expect(report.results).toHaveLength(t.requests().length);
    expect(journalLines(out)).toHaveLength(report.results.length + 1);
    expect(res.stdout).toContain(`PARTIAL run: ${report.results.length} of 30 questions`);
  });

  it('a second SIGINT exits at once; --grace bounds the wait for requests in flight', async () => {
    const t = await serve(() => ({ kind: 'slow', delayMs: 5000 }));
    const dataset = writeTemp(dir, 'int2.jsonl', faultDataset(6));
    const out = join(dir, 'int2');
    const run = spawnCli(['run', '-d', dataset, '--base-url', t.url, '--agent', 'demo', '-o', out, '-c', '2', '--quiet'], env);
    await waitFor(() => t.requests().length >= 2);
    const started = performance.now();
    run.child.kill('SIGINT');
    await stderrHolds(run, 'stopping');
    run.child.kill('SIGINT');
    const res = await run.exited;
    expect(performance.now() - started).toBeLessThan(2000);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`answer-eval: second SIGINT: exiting now; the journal holds every finished question (continue with: answer-eval run --resume ${out})`);

    const out3 = join(dir, 'grace');
    const graced = spawnCli(['run', '-d', dataset, '--base-url', t.url, '--agent', 'demo', '-o', out3, '-c', '2', '--quiet', '--grace', '200', '--format', 'json'], env);
    await waitFor(() => journalLines(out3).length >= 1 && t.requests().length >= 4);
    const sent = performance.now();
    graced.child.kill('SIGTERM');
    const g = await graced.exited;
    expect(performance.now() - sent).toBeLessThan(2500);
    expect(g.code).toBe(3);
    expect(readReport(out3).run).toMatchObject({ status: 'partial', stopReason: expect.stringMatching(/^interrupted by SIGTERM/) });
    expect(readReport(out3).results).toHaveLength(0); // cut off after the grace period: not journaled, asked again on resume
  });

  it('refuses --resume with a changed dataset, naming both hashes (exit 2)', async () => {
    const t = await serve(() => ({ kind: 'ok' }));
    const dataset = writeTemp(dir, 'changing.jsonl', faultDataset(3));
    const out = join(dir, 'changing');
    expect((await runCli(['run', '-d', dataset, '--base-url', t.url, '--agent', 'demo', '-o', out, '--quiet'], env)).code).toBe(0);
    const hash = readReport(out).run.dataset.sha256;
    writeTemp(dir, 'changing.jsonl', faultDataset(4));
    const res = await runCli(['run', '--resume', out, '--language', 'fr', '--retries', '0', '--quiet'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      new RegExp(`^answer-eval: cannot resume ${out}: the dataset differs \\(journal ${dataset} sha256 ${hash}, now ${dataset} sha256 [0-9a-f]{64}\\); --language differs \\(journal "en", now "fr"\\); --retries differs \\(journal 2, now 0\\)\\n$`),
    );
  });
});

describe('security (built CLI)', () => {
  it('the agent code is in no file the run writes nor in its output, through faults; URLs lose credentials and query', async () => {
    const server: SpecServer = await startSpecServer((req) => {
      const n = Number(String((req.body['question'] as { text: string }).text).slice(1));
      const code = String(req.headers['wikiclone_code']);
      if (n % 5 === 0) return { status: 500, body: `proxy error: header wikiclone_code=${code}` };
      if (n % 5 === 1) return { reset: true };
      if (n % 5 === 2) return { body: `{"broken ${code}` };
      if (n % 5 === 3) return { body: { answers: [{ ...item(1, 90), answer: `echo ${code}` }] } };
      return { status: 429, headers: { 'retry-after': '0' }, body: code };
    });
    closers.push(() => server.close());
    const dataset = writeTemp(dir, 'secret.jsonl', faultDataset(10));
    const out = join(dir, 'secret');
    const baseUrl = server.url.replace('http://', 'http://someone:pw-Leak99@') + '/?key=qs-Leak88';
    // 8 of 10 fail on purpose: --max-error-rate 1 accepts them
    const res = await runCli(['run', '-d', dataset, '--base-url', baseUrl, '--agent', 'demo', '-o', out, '--retries', '1', '--max-error-rate', '1'], env);
    expect(res.code).toBe(0);
    const report = readReport(out);
    expect(report.run.baseUrl).toBe(server.url);
    expect(report.summary.outcomes.error).toBe(8);
    const written = filesUnder(out);
    expect(written.map((f) => f.slice(out.length + 1)).sort()).toEqual(['journal.jsonl', 'junit.xml', 'report.html', 'report.json', 'results.csv', 'run-options.json', 'summary.md']);
    for (const text of [...written.map((f) => readFileSync(f, 'utf8')), res.stdout, res.stderr]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('pw-Leak99');
      expect(text).not.toContain('qs-Leak88');
    }
    expect(report.results[0]?.error?.message).toContain('wikiclone_code=<agent code>');
  });

  it('https is verified; --insecure turns that off and says so loudly on stderr', async () => {
    const tls = { key: readFileSync(new URL('../fixtures/tls/key.pem', import.meta.url)), cert: readFileSync(new URL('../fixtures/tls/cert.pem', import.meta.url)) };
    const server = createServer(tls, (req, res) => {
      req.resume();
      req.on('end', () => res.end(JSON.stringify({ answers: [item(1, 90)] })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dataset = writeTemp(dir, 'tls.jsonl', faultDataset(1));
    const args = (out: string) => ['run', '-d', dataset, '--base-url', url, '--agent', 'demo', '-o', join(dir, out), '--retries', '0', '--format', 'json'];

    const verified = await runCli(args('tls1'), env);
    // its only question ended in error: nothing was measured (exit 3)
    expect(verified.code).toBe(3);
    expect(verified.stderr).toMatch(/^answer-eval: nothing was measured: the only question ended in error/);
    expect(readReport(join(dir, 'tls1')).results[0]).toMatchObject({ outcome: 'error', error: { kind: 'network', message: expect.stringMatching(/self-signed certificate/) } });

    const insecure = await runCli([...args('tls2'), '--insecure'], env);
    expect(insecure.stderr).toBe(
      `answer-eval: WARNING: --insecure: TLS certificates are NOT verified. Anyone on the path to ${url} can read the agent code and forge answers. Use it only against a test server.\n`,
    );
    const report = readReport(join(dir, 'tls2'));
    expect(report.results[0]?.error).toBeNull();
    expect(report.run.options.insecure).toBe(true);
  });
});
