import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, ftruncateSync, mkdirSync, openSync, closeSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { DEFAULT_LIMITS, limits } from '../../src/util/limits.js';
import { setLimitsForTests } from '../helpers/limits.js';
import { runCli } from '../helpers/cli.js';
import { runMeasured } from '../helpers/measure.js';
import { tempDir } from '../helpers/tmp.js';

// Issue 25, class 6: resume trusts nothing. A journal with forged, cut, reordered or foreign lines, or lines of the
// wrong types, is resumed with every damaged line named (journal.jsonl:LINE) and dropped, its question asked again,
// or refused with exit 2 naming the line when its header cannot be trusted; never an internal error, never a wrong
// result kept. The embedded engine answers the same way every time, so a resumed report must equal a whole run's.
// The CLI runs in this process with the longest line lowered (util/limits.ts), a line just past it; the built CLI, with
// the bound users have, shows time and memory once.
const MiB = 1024 * 1024;
const dir = tempDir();
const TOTAL = 113; // the sample question set

let whole: Report;
let header: string;
let results: string[]; // the whole run's result lines, in the order they were journaled
let otherRun: string[]; // the journal of a second whole run of the same dataset
let restore: () => void; // the bounds in force before this file lowered them
const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const outcomes = (r: Report) => r.results.map((x) => [x.id, x.outcome, x.top1Index === null ? null : x.answers[x.top1Index]!.sequence_number]);
const idOf = (line: string): string => (JSON.parse(line) as { id: string }).id;

beforeAll(async () => {
  for (const name of ['whole', 'other']) {
    const res = await runCli(['run', '-o', join(dir, name), '--format', 'json', '-q']);
    expect(res.code, res.stderr).toBe(0);
  }
  whole = readReport(join(dir, 'whole'));
  [header, ...results] = readFileSync(join(dir, 'whole', 'journal.jsonl'), 'utf8').trimEnd().split('\n') as [string, ...string[]];
  otherRun = readFileSync(join(dir, 'other', 'journal.jsonl'), 'utf8').trimEnd().split('\n');
  expect(results).toHaveLength(TOTAL);
  restore = setLimitsForTests({ lineBytes: MiB });
}, 60_000);
afterAll(() => restore?.());

/** A run directory holding `lines` as its journal (joined with line breaks, one after the last unless `tail` says otherwise). */
function journal(name: string, lines: (string | Buffer)[], tail: string | Buffer = '\n'): string {
  const out = join(dir, name);
  mkdirSync(out);
  const parts = lines.flatMap((l, i) => [Buffer.from(l), Buffer.from(i < lines.length - 1 ? '\n' : '')]);
  writeFileSync(join(out, 'journal.jsonl'), Buffer.concat([...parts, Buffer.from(tail)]));
  return out;
}

const resume = (out: string) => runCli(['run', '--resume', out, '--format', 'json', '-q']);

describe('run --resume on a damaged journal', () => {
  it('drops each damaged line in the middle, names it, asks its question again: the report is the whole run’s', async () => {
    const kept = results.slice(0, 60);
    const spare = results.slice(60); // questions the journal must not answer: each damaged line is one of these
    const tag = (JSON.parse(header) as { run: string }).run;
    const damaged = [
      spare[0]!.replace('"answers":[', '"answers":5,"was":['), // a wrong type
      '\u0000\u0000\u0000\u0000', // NUL bytes
      spare[1]!.slice(0, 120), // cut in the middle of the file
      spare[2]!.replace('"answers":[', `"answers":[],"x":${'['.repeat(5000)}${']'.repeat(5000)},"was":[`), // nested 5,000 deep
      spare[3]!.replace(/"line":\d+/, '"line":9999'), // a result for another line of the dataset
      spare[4]!.replace(/"id":"[^"]+"/, '"id":"no-such-question"'), // a question the dataset does not hold
      spare[5]!.replace(`"run":"${tag}"`, '"run":"0000000000000000"'), // another run's
    ];
    const out = journal('damaged', [header, ...kept.slice(0, 30), ...damaged, ...kept.slice(30)]);
    const res = await resume(out);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/internal error|RangeError|TypeError/);
    const path = join(out, 'journal.jsonl');
    const at = (k: number): string => `answer-eval: warning: ${path}:${32 + k}: `;
    expect(res.stderr).toContain(`${at(0)}not a question result of answer-eval (answers: Invalid input: expected array, received number): dropped\n`);
    expect(res.stderr).toContain(`${at(1)}not JSON (holds NUL bytes, which no JSON text does (a damaged or binary file); cut short or damaged): dropped\n`);
    expect(res.stderr).toMatch(new RegExp(`${at(2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}not JSON \\(.*; cut short or damaged\\): dropped\\n`));
    expect(res.stderr).toContain(`${at(3)}nests arrays and objects more than 64 levels deep`);
    expect(res.stderr).toContain(`${at(4)}the result of "${idOf(spare[3]!)}" is for line 9999 of the dataset, where that question is at line `);
    expect(res.stderr).toContain(`${at(5)}a result for "no-such-question", which this run does not ask: ignored\n`);
    expect(res.stderr).toContain(`${at(6)}written by another run (run 0000000000000000; this journal's header is of run ${tag})`);
    expect(res.stderr).toContain(`answer-eval: warning: ${path}: 7 lines not taken; every question of this run without a result taken is asked again\n`);
    const report = readReport(out);
    expect(report.run.resumed).toEqual({ fromJournal: 60, asked: TOTAL - 60, rerun: null, dropped: 7 });
    expect(outcomes(report)).toEqual(outcomes(whole));
  }, 120_000);

  it('drops a line forged with the run’s own tag: another question text, or an outcome its answers do not give', async () => {
    const wrong = results.find((l) => l.includes('"outcome":"wrong"'))!;
    const [a, b] = results.filter((l) => l !== wrong && l.includes('"expected":{"expect":"answer",'));
    const forged = [
      wrong.replace('"outcome":"wrong"', '"outcome":"correct"'),
      a!.replace(/"question":"[^"]*"/, '"question":"a question nobody asked"'),
      b!.replace('"expected":{"expect":"answer",', '"expected":{"expect":"fallback",'),
    ];
    const kept = results.filter((l) => !forged.some((f) => idOf(f) === idOf(l)));
    const out = journal('forged', [header, ...kept, ...forged]);
    const res = await resume(out);
    expect(res.code, res.stderr).toBe(0);
    const path = join(out, 'journal.jsonl');
    const at = (k: number): string => `answer-eval: warning: ${path}:${kept.length + 2 + k}: the result of "${idOf(forged[k]!)}" `;
    expect(res.stderr).toContain(`${at(0)}is "correct", where its answers give "wrong" (judged again): dropped, the question is asked again\n`);
    expect(res.stderr).toContain(`${at(1)}is for another question text than the dataset's: dropped, the question is asked again\n`);
    expect(res.stderr).toContain(`${at(2)}expects other answers than the dataset's row: dropped`);
    expect(readReport(out).run.resumed).toEqual({ fromJournal: TOTAL - 3, asked: 3, rerun: null, dropped: 3 });
    expect(outcomes(readReport(out))).toEqual(outcomes(whole));
  }, 120_000);

  it("drops the lines of another run's journal joined to it, as one range; a replaced header drops every line", async () => {
    const joined = journal('joined', [header, ...results.slice(0, 60), ...otherRun]);
    const res = await resume(joined);
    expect(res.code, res.stderr).toBe(0);
    const path = join(joined, 'journal.jsonl');
    expect(res.stderr).toContain(`answer-eval: warning: ${path}:62: a second journal header (another run's journal was joined to this one): dropped\n`);
    expect(res.stderr).toContain(`answer-eval: warning: ${path}:63-${62 + TOTAL}: written by another run (run `);
    expect(readReport(joined).run.resumed).toEqual({ fromJournal: 60, asked: TOTAL - 60, rerun: null, dropped: TOTAL + 1 });
    expect(outcomes(readReport(joined))).toEqual(outcomes(whole));

    const replaced = journal('replaced', [otherRun[0]!, ...results.slice(0, 60)]);
    const res2 = await resume(replaced);
    expect(res2.code, res2.stderr).toBe(0);
    expect(res2.stderr).toContain(`${join(replaced, 'journal.jsonl')}:2-61: written by another run (run ${(JSON.parse(header) as { run: string }).run}; this journal's header is of run `);
    expect(readReport(replaced).run.resumed).toEqual({ fromJournal: 0, asked: TOTAL, rerun: null, dropped: 60 });
  }, 120_000);

  it('takes reordered lines and a question journaled twice (the later line) without a word', async () => {
    const shuffled = [...results].reverse();
    const out = journal('reordered', [header, ...shuffled, results[5]!, results[6]!]);
    const res = await resume(out);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('');
    expect(readReport(out).run.resumed).toEqual({ fromJournal: TOTAL, asked: 0, rerun: null });
    expect(outcomes(readReport(out))).toEqual(outcomes(whole));
  }, 120_000);

  it('refuses (exit 2, naming line 1 and what is wrong) a journal whose header cannot be trusted', async () => {
    const cases: [string, (string | Buffer)[], string | Buffer, string][] = [
      ['bad-type', [header.replace(/"timeoutMs":\d+/, '"timeoutMs":"30000"'), ...results], '\n', ':1: is not a journal header (expected {"journal":2,"run":...}: request.timeoutMs: Invalid input: expected number, received string); the journal is damaged'],
      ['no-header', results, '\n', ':1: is a question result where the journal header belongs (the header line was lost or moved)'],
      ['old-format', [header.replace('"journal":2', '"journal":1'), ...results], '\n', ':1: a journal of format 1, and this answer-eval reads format 2'],
      ['nul-header', [Buffer.alloc(2 * 1024 * 1024)], '', ':1: is longer than 1 MiB and holds NUL bytes (a damaged or binary file): not a journal header'],
      ['empty', [], '', ':1: has no header line (the run died before it wrote anything)'],
      ['deep-header', [header.replace('"tool":', `"x":${'['.repeat(5000)}${']'.repeat(5000)},"tool":`)], '\n', ':1: is not a journal header (nests arrays and objects more than 64 levels deep'],
    ];
    for (const [name, lines, tail, said] of cases) {
      const out = journal(name, lines, tail);
      const res = await resume(out);
      expect(res.code, `${name}: ${res.stderr}`).toBe(2);
      expect(res.stderr, name).toContain(`answer-eval: ${join(out, 'journal.jsonl')}${said}`);
      expect(res.stderr, name).not.toMatch(/internal error/);
    }
  }, 120_000);

  it('refuses a journal that is a directory or a FIFO (never waits on it)', async () => {
    for (const make of [(path: string) => mkdirSync(path), (path: string) => execFileSync('mkfifo', [path])]) {
      const out = join(dir, `not-a-file-${Math.random().toString(36).slice(2)}`);
      mkdirSync(out);
      make(join(out, 'journal.jsonl'));
      const res = await resume(out);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toBe(`answer-eval: --resume ${out}: ${join(out, 'journal.jsonl')} is not a regular file (expected the journal an earlier run wrote)\n`);
    }
  }, 120_000);

  it('refuses a damaged run-options.json, naming it and the option', async () => {
    for (const [text, said] of [
      ['{"minAccuracy": "0.9"}', '"minAccuracy" is "0.9", where --min-accuracy must be a share between 0 and 1'],
      ['{"minAccuracy": 7}', '"minAccuracy" is 7, where --min-accuracy must be a share between 0 and 1'],
      ['null', 'not a JSON object'],
      ['{"__proto__": {"format": "json"}}', '"__proto__" is no option a run keeps'],
      ['{"format": ', 'not JSON ('],
    ] as const) {
      const out = join(dir, `options-${Math.random().toString(36).slice(2)}`);
      cpSync(join(dir, 'whole'), out, { recursive: true });
      writeFileSync(join(out, 'run-options.json'), text);
      const res = await resume(out);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(`answer-eval: ${join(out, 'run-options.json')}: ${said}`);
    }
  }, 120_000);

  it('a line past the longest and a tail of NUL bytes: the line is dropped, the tail cut off', async () => {
    expect(DEFAULT_LIMITS.lineBytes).toBe(64 * MiB); // users' bound; this file's is 1 MiB
    const out = journal('huge', [header, ...results.slice(0, 40), 'x'.repeat(limits.lineBytes + MiB), ...results.slice(40, 80)], Buffer.concat([Buffer.from('\n'), Buffer.alloc(limits.lineBytes / 2)]));
    const res = await resume(out);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`${join(out, 'journal.jsonl')}:42: is longer than 1 MiB: dropped\n`);
    expect(readReport(out).run.resumed).toEqual({ fromJournal: 80, asked: TOTAL - 80, rerun: null, dropped: 1 });
    expect(outcomes(readReport(out))).toEqual(outcomes(whole));
    // the NUL tail was cut off before the new lines: a second resume reads every line
    const size = statSync(join(out, 'journal.jsonl')).size;
    expect(readFileSync(join(out, 'journal.jsonl')).subarray(size - MiB).includes(0)).toBe(false);
    const again = await resume(out);
    expect(again.code, again.stderr).toBe(0);
    expect(readReport(out).run.resumed).toEqual({ fromJournal: TOTAL, asked: 0, rerun: null, dropped: 1 });
  }, 120_000);

  it('the built CLI, with the bound users have: a line of 65 MiB of NUL bytes dropped within seconds, in bounded memory', async () => {
    const out = join(dir, 'huge-cli');
    mkdirSync(out);
    const path = join(out, 'journal.jsonl');
    writeFileSync(path, `${[header, ...results.slice(0, 40)].join('\n')}\n`);
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, statSync(path).size + 65 * MiB); // the line: NUL bytes, sparse (no disk for them)
    closeSync(fd);
    appendFileSync(path, `\n${results.slice(40, 80).join('\n')}\n`);
    const res = await runMeasured(['run', '--resume', out, '--format', 'json', '-q']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`${path}:42: is longer than 64 MiB and holds NUL bytes (a damaged or binary file): dropped\n`);
    expect(readReport(out).run.resumed).toEqual({ fromJournal: 80, asked: TOTAL - 80, rerun: null, dropped: 1 });
    expect(outcomes(readReport(out))).toEqual(outcomes(whole));
    expect(res.ms).toBeLessThan(30_000);
    if (res.peakMiB !== undefined) expect(res.peakMiB).toBeLessThan(400);
  }, 120_000);
});
