import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeLineSchema, ComparisonSchema } from '../../src/compare/schema.js';
import { SAMPLE_KB } from '../../src/engine/index.js';
import { isCorrect } from '../../src/model/outcome.js';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { countedCases, idsOf, readJunit } from '../helpers/junit.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Issue 24, points 1-3: one knowledge-base entry of the sample edited (line 30, green_energy, sequence 62: its examples
// replaced by phrasings that belong to other entries) breaks a few questions. The README's pull-request recipe must
// fail naming exactly them, significant-regression alone must say why it cannot, and junit.xml must fail exactly them.
const dir = tempDir();
const EDITED_SEQ = 62;

function editedKb(): string {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edited = lines.map((line) => {
    const entry = JSON.parse(line) as { sequence_number: number };
    return entry.sequence_number === EDITED_SEQ ? JSON.stringify({ ...entry, examples: ['eco friendly tariff', 'which plans do you offer', 'cheapest tariff'] }) : line;
  });
  expect(edited).not.toEqual(lines);
  return writeTemp(dir, 'kb-edited.jsonl', `${edited.join('\n')}\n`);
}

const kb = editedKb();
const baseline = join(dir, 'main', 'report.json');
const text = (out: string, file: string) => readFileSync(join(dir, out, file), 'utf8');
const reportOf = (out: string): Report => ReportSchema.parse(JSON.parse(text(out, 'report.json')));
/** The README's pull-request recipe, on the embedded engine with the edited knowledge base. */
const recipe = (out: string, quarantine: string, ...more: string[]) =>
  runCli(['run', '--kb', kb, '-o', join(dir, out), '--baseline', baseline, '--quarantine', quarantine, '--fail-on', 'regression', '--max-error-rate', '0.02', '-q', ...more]);

/** The questions correct in the baseline and not in the run: computed from the two reports, not from compare. */
function brokenBetween(base: Report, head: Report): string[] {
  const before = new Map(base.results.map((r) => [r.id, r.outcome]));
  return head.results.filter((r) => before.has(r.id) && isCorrect(before.get(r.id)!) && !isCorrect(r.outcome) && r.outcome !== 'error').map((r) => r.id);
}

/** The questions failing in both runs. */
function failingBoth(base: Report, head: Report): string[] {
  const before = new Map(base.results.map((r) => [r.id, r.outcome]));
  const failing = (o: Report['results'][number]['outcome']) => !isCorrect(o) && o !== 'error' && o !== 'unlabeled';
  return head.results.filter((r) => before.has(r.id) && failing(before.get(r.id)!) && failing(r.outcome)).map((r) => r.id);
}

let broken: string[] = [];
const emptyQuarantine = writeTemp(dir, 'empty-quarantine.txt', '# nothing is known to be unstable yet\n');

beforeAll(async () => {
  const main = await runCli(['run', '-o', join(dir, 'main'), '--format', 'json', '-q']);
  expect(main.stderr).toBe('');
  expect(main.code).toBe(0);
}, 60_000);

describe('the documented pull-request recipe on the sample with entry 30 edited', () => {
  it('exits 1 naming exactly the broken questions; junit.xml fails exactly them and skips the old failures', async () => {
    const res = await recipe('pr', emptyQuarantine);
    broken = brokenBetween(reportOf('main'), reportOf('pr'));
    // the questions that expect the edited entry are among them, and so is every other question the edit broke
    expect(broken).toEqual(expect.arrayContaining(['q058', 'q059']));
    expect(broken.length).toBeGreaterThanOrEqual(3);
    const why = `${broken.length} broken questions (${broken.join(', ')}) with --fail-on regression`;
    expect(res.stderr).toBe(`answer-eval: gate failed:\n  - ${why}\n`);
    expect(res.code).toBe(1);
    expect(text('pr', 'summary.md').split('\n')[0]).toBe(`**❌ answer-eval: 1 of 2 gates FAILED**: ${why}`);

    const c = ComparisonSchema.parse(JSON.parse(text('pr', 'compare.json')));
    expect(c.schemaVersion).toBe('3.4');
    expect(c.questions.broken.map((q) => q.id)).toEqual(broken);
    expect(c.counts).toMatchObject({ broken: broken.length, quarantined: 0, fixed: 0 });
    expect(c.quarantine).toEqual({ file: emptyQuarantine, ids: 0, unknown: [], unknownCount: 0 });

    const { suites, totals } = await readJunit(text('pr', 'junit.xml'));
    const questions = suites.find((s) => s.name !== 'answer-eval gates')!;
    expect(idsOf(questions, 'failure')).toEqual([...broken].sort());
    const old = failingBoth(reportOf('main'), reportOf('pr'));
    expect(old.length).toBeGreaterThan(0);
    expect(idsOf(questions, 'skipped')).toEqual([...old].sort());
    for (const c of questions.cases.filter((k) => k.kind === 'skipped')) expect(c.message).toMatch(/^failing in the baseline too: /);
    for (const c of questions.cases.filter((k) => k.kind === 'failure')) expect(c.message).toMatch(/^broken \(it passed in the baseline\): /);
    expect(questions.counts).toEqual(countedCases(questions));
    expect(questions.properties['baseline']).toBe(baseline);
    const gates = suites.find((s) => s.name === 'answer-eval gates')!;
    expect(totals).toMatchObject({ tests: questions.counts.tests + 2, failures: broken.length + 1, errors: 0, skipped: old.length });
    expect(gates.counts).toEqual({ tests: 2, failures: 1, errors: 0, skipped: 0 });
  });

  it('with the broken questions quarantined it exits 0, and every artifact shows "broke, but quarantined" apart', async () => {
    const q = writeTemp(dir, 'quarantine.txt', `# known to be unstable\n${broken.map((id) => `${id}  # flaky in a test`).join('\n')}\nq999  # removed long ago\n`);
    const res = await recipe('pr-q', q);
    expect(res.code).toBe(0);
    const gate = `no broken question (${broken.length} broke, but quarantined: ${broken.join(', ')})`;
    expect(res.stdout).toContain(`gate passed: ${gate}`);
    for (const id of broken) expect(res.stdout).toMatch(new RegExp(`broke, but quarantined: ${id} \\(\\w+ -> \\w+\\)`));
    expect(res.stdout).toContain(`quarantine ${q}: ${broken.length + 1} ids; ${broken.length} broke, but quarantined (not counted as regressions); 1 id is in neither run (q999)`);
    expect(res.stderr).toBe(
      `answer-eval: warning: --quarantine ${q}: 1 listed id is in neither run (no question, turn or conversation has it: removed or renamed? drop it from the quarantine):\n  ${q}:${broken.length + 2}: "q999" is in neither run\n`,
    );

    const c = ComparisonSchema.parse(JSON.parse(text('pr-q', 'compare.json')));
    expect(c.counts).toMatchObject({ broken: 0, quarantined: broken.length });
    expect(c.questions.quarantined.map((x) => x.id)).toEqual(broken);
    expect(c.paired.mcnemar.b).toBe(broken.length); // the statistics still describe the change
    expect(c.quarantine).toMatchObject({ ids: broken.length + 1, unknown: ['q999'], unknownCount: 1 });
    const lines = text('pr-q', 'changes.jsonl').trimEnd().split('\n').map((l) => ChangeLineSchema.parse(JSON.parse(l)));
    expect(lines.filter((l) => l.class === 'quarantined').map((l) => l.id)).toEqual(broken);
    expect(lines.filter((l) => l.class === 'broken')).toEqual([]);
    expect(text('pr-q', 'compare.md')).toContain(`### Broke, but quarantined (not counted as regressions) (${broken.length})`);
    expect(text('pr-q', 'compare.md')).toContain(`no broken question, ${broken.length} broke, but quarantined, 0 fixed`);
    expect(text('pr-q', 'compare.md')).toContain(`: ${broken.length} broken (${broken.length} of them quarantined), 0 fixed, exact McNemar p`);
    expect(text('pr-q', 'summary.md')).toContain(gate);
    expect(text('pr-q', 'compare.html')).toContain(`${broken.length} broke, but quarantined →`);
    expect(text('pr-q', 'report.html')).toContain(gate);

    const questions = (await readJunit(text('pr-q', 'junit.xml'))).suites.find((s) => s.name !== 'answer-eval gates')!;
    expect(idsOf(questions, 'failure')).toEqual([]);
    const quarantined = questions.cases.filter((k) => k.message?.startsWith('broke, but quarantined: '));
    expect(quarantined.map((k) => [k.id, k.kind])).toEqual([...broken].sort().map((id) => [id, 'skipped']));
    expect(questions.counts).toEqual(countedCases(questions));
  });

  it('quarantining some of them fails on the others alone, naming both apart', async () => {
    const [first, ...rest] = broken;
    const q = writeTemp(dir, 'one.txt', `${first}\n`);
    const res = await recipe('pr-one', q);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`answer-eval: gate failed:\n  - ${rest.length} broken questions (${rest.join(', ')}) with --fail-on regression; besides, 1 broke, but quarantined (${first}): not counted\n`);
    const questions = (await readJunit(text('pr-one', 'junit.xml'))).suites.find((s) => s.name !== 'answer-eval gates')!;
    expect(idsOf(questions, 'failure')).toEqual([...rest].sort());
  });

  it('--fail-on significant-regression alone passes, and says why it cannot see them and which gate can', async () => {
    const res = await runCli(['run', '--kb', kb, '-o', join(dir, 'sig'), '--baseline', baseline, '--fail-on', 'significant-regression', '-q']);
    expect(res.code).toBe(0);
    const c = ComparisonSchema.parse(JSON.parse(text('sig', 'compare.json')));
    expect(c.paired.mcnemar).toMatchObject({ b: broken.length, c: 0 });
    expect(c.paired.mcnemar.p).toBeGreaterThanOrEqual(0.05);
    const power = 'with 0 fixed, it takes at least 6 broken questions to be significant at --alpha 0.05, so this gate does not fail on fewer; to fail on any broken question, use --fail-on regression (or --max-broken N)';
    const message = c.gates!.results[0]!.message;
    expect(message).toContain(`(${broken.length} broken, 0 fixed), McNemar p ${c.paired.mcnemar.p.toPrecision(3)} >= --alpha 0.05: not a significant regression; ${power}`);
    // the bootstrap interval lies wholly below 0 (as in the issue): the verdict says the two disagree
    expect(c.paired.top1Accuracy.high).toBeLessThan(0);
    expect(message).toContain("McNemar and the bootstrap interval disagree: the paired bootstrap 95% interval of the accuracy change (");
    expect(message).toContain("lies wholly below 0, yet McNemar's p is not below --alpha 0.05");
    // on the console, in summary.md, compare.md and report.json
    expect(res.stdout).toContain(`gate passed: ${message}`);
    expect(text('sig', 'summary.md')).toContain(power);
    expect(text('sig', 'compare.md')).toContain(power);
    expect(reportOf('sig').gates!.results[0]!.message).toBe(message);
  });

  it('compare writes compare.junit.xml judged against BASE, with the same quarantine; a quarantine it cannot read is exit 2', async () => {
    const q = writeTemp(dir, 'half.txt', `${broken[0]}\n`);
    const res = await runCli(['compare', baseline, join(dir, 'pr'), '-o', join(dir, 'cmp'), '--fail-on', 'regression', '--quarantine', q]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(join(dir, 'cmp', 'compare.junit.xml'));
    const { suites } = await readJunit(text('cmp', 'compare.junit.xml'));
    const questions = suites.find((s) => s.name !== 'answer-eval gates')!;
    expect(idsOf(questions, 'failure')).toEqual(broken.slice(1).sort());
    expect(questions.cases.find((k) => k.id === broken[0])).toMatchObject({ kind: 'skipped', message: expect.stringMatching(/^broke, but quarantined: /) });
    expect(questions.counts).toEqual(countedCases(questions));
    // compare's gates, not the run's
    expect(suites.find((s) => s.name === 'answer-eval gates')!.cases.map((k) => k.id)).toEqual(['--fail-on regression']);

    const missing = join(dir, 'no-such-quarantine.txt');
    const bad = await runCli(['compare', baseline, join(dir, 'pr'), '-o', join(dir, 'cmp2'), '--quarantine', missing]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--quarantine ${missing}: no such file`);
    const twice = await runCli(['compare', baseline, join(dir, 'pr'), '-o', join(dir, 'cmp2'), '--quarantine', q, '--quarantine', q]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(`answer-eval: --quarantine was given 2 times (${q}, ${q}): give it once\nSee answer-eval compare --help.\n`);
    const folder = await runCli(['compare', baseline, join(dir, 'pr'), '-o', join(dir, 'cmp2'), '--quarantine', dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(`answer-eval: --quarantine ${dir}: is a directory (expected a text file of question ids, one a line, such as the quarantine.txt trend or run --repeat writes)\n`);
    const control = writeTemp(dir, 'control.txt', 'q001\nq\u0007002\n');
    const badRun = await recipe('pr-bad', control);
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toContain(`${control}:2: the id holds an invisible or control character (U+0007)`);
  });
});
