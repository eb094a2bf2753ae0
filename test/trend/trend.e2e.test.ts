import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCorrect, isJudged, OUTCOME_CLASSES } from '../../src/model/outcome.js';
import { buildTrend } from '../../src/trend/build.js';
import { findRuns } from '../../src/trend/discover.js';
import { TrendSchema } from '../../src/trend/schema.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { BROKEN_BY_EDIT_1, BROKEN_BY_EDIT_2, buildNights, DATASET_EDITED, EDITS, FLAKY, NEW_FAILURE, nightDate, NIGHTS, TWICE, type Nights } from './nights.js';

const dir = tempDir('answer-eval-trend-');
let nights: Nights;

/** What the history of one question says, read naively from every night's outcome (the oracle). */
function oracle(id: string) {
  const seen = nights.outcomes.map((o, night) => ({ night, outcome: o.get(id) })).filter((s) => s.outcome !== undefined && isJudged(s.outcome));
  const last = seen.at(-1)!;
  let since = last.night;
  for (let k = seen.length - 1; k >= 0 && !isCorrect(seen[k]!.outcome!); k--) since = seen[k]!.night;
  const before = seen.filter((s) => s.night < NIGHTS - 1).at(-1);
  return { failingSince: since, everPassed: seen.some((s) => isCorrect(s.outcome!)), newFailure: before !== undefined && isCorrect(before.outcome!) };
}

const firstJudged = (id: string, from: number): number => {
  for (let n = from; n < NIGHTS; n++) if (isJudged(nights.outcomes[n]!.get(id)!)) return n;
  return -1;
};

describe('trend over thirty nightly runs of the embedded engine', () => {
  beforeAll(async () => {
    nights = await buildNights(join(dir, 'nights'));
  }, 180_000);

  it('puts the runs in time order and marks the knowledge-base edits and the dataset changes', async () => {
    const trend = await buildTrend(await findRuns([nights.root]));
    expect(trend.runs.map((r) => r.startedAt)).toEqual(Array.from({ length: NIGHTS }, (_, n) => nightDate(n).toISOString()));
    const marked = trend.runs.flatMap((r, n) => r.changes.map((c) => `${n} ${c.kind}`));
    expect(marked).toEqual([`${EDITS[0]} service`, '15 dataset', '17 dataset', `${EDITS[1]} service`]);
    expect(trend.runs[EDITS[0]]!.changes[0]!.what).toMatch(/^baseUrl "http:\/\/127\.0\.0\.1:\d+" → "http:\/\/127\.0\.0\.1:\d+"$/);
    // the seeded faults did happen, and some ended in error
    expect(nights.outcomes.some((o) => [...o.values()].includes('error'))).toBe(true);
  });

  it('finds exactly the flaky questions set up', async () => {
    const reports = await findRuns([nights.root]);
    const flaky = (await buildTrend(reports)).flaky;
    expect(flaky.map((q) => q.id).sort()).toEqual([...FLAKY, TWICE].sort());
    // flips are counted only between runs of one knowledge base: 9 in each of the three stretches of ten nights
    for (const q of flaky.filter((f) => FLAKY.includes(f.id))) expect(q.flips).toBe(27);
    expect(flaky.find((q) => q.id === TWICE)!.flips).toBe(2);
    expect((await buildTrend(reports, { flakyFlips: 3 })).flaky.map((q) => q.id).sort()).toEqual([...FLAKY].sort());
  });

  it('says since when each failing question fails, whether it ever passed, and which failures are new', async () => {
    const trend = await buildTrend(await findRuns([nights.root]));
    const latest = nights.outcomes[NIGHTS - 1]!;
    const failingIds = [...latest].filter(([, o]) => OUTCOME_CLASSES[o].failing).map(([id]) => id);
    expect(trend.failing.map((q) => q.id).sort()).toEqual(failingIds.sort());
    for (const q of trend.failing) expect({ id: q.id, ...oracle(q.id) }).toEqual({ id: q.id, failingSince: q.failingSince, everPassed: q.everPassed, newFailure: q.newFailure });

    const byId = new Map(trend.failing.map((q) => [q.id, q]));
    // the nights set up (a run where the question ended in error does not start or break a streak)
    for (const id of BROKEN_BY_EDIT_2) expect(byId.get(id)).toMatchObject({ failingSince: firstJudged(id, EDITS[1]), everPassed: true, newFailure: false });
    expect(byId.get('q100')).toMatchObject({ everPassed: false }); // the edits leave the answers they do not touch as they were
    expect(byId.get(NEW_FAILURE)).toMatchObject({ failingSince: NIGHTS - 1, everPassed: true, newFailure: true });
    // the flaky ones are wrong on odd nights, the last one among them
    for (const id of FLAKY) expect(byId.get(id)).toMatchObject({ failingSince: NIGHTS - 1, everPassed: true, newFailure: true });
    for (const id of [...BROKEN_BY_EDIT_1, DATASET_EDITED, TWICE]) expect(byId.has(id), id).toBe(false);
    // questions the engine never answers right
    expect(byId.get('q006')).toMatchObject({ everPassed: false });
    expect(trend.failing.filter((q) => q.newFailure).map((q) => q.id).sort()).toEqual([...FLAKY, NEW_FAILURE].sort());
  });

  it('runs through the CLI: writes trend.html, trend.md and trend.json, and gates', async () => {
    const out = join(dir, 'out');
    mkdirSync(out, { recursive: true });
    const failed = await runCli(['trend', nights.root, '-o', out, '--max-new-failures', '0', '--max-flaky', '10']);
    expect(failed.stderr).toContain('gate failed');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(`gate FAILED: ${1 + FLAKY.length} new failures > --max-new-failures 0`);
    const md = readFileSync(join(out, 'trend.md'), 'utf8');
    expect(md.split('\n')[0]).toMatch(/^\*\*❌ answer-eval: 1 of 2 gates FAILED\*\*: .*--max-new-failures 0/);
    const json = TrendSchema.parse(JSON.parse(readFileSync(join(out, 'trend.json'), 'utf8')));
    expect(json.verdict).toBe('failed');
    expect(json.flaky.map((q) => q.id).sort()).toEqual([...FLAKY, TWICE].sort());
    expect(readFileSync(join(out, 'trend.html'), 'utf8')).toContain('<svg class="chart"');

    const passed = await runCli(['trend', nights.root, '-o', out, '--max-new-failures', String(1 + FLAKY.length), '--max-flaky', '5', '--format', 'md']);
    expect(passed.code).toBe(0);
    expect(readFileSync(join(out, 'trend.md'), 'utf8').split('\n')[0]).toBe('**✅ answer-eval: every gate passed (2 gates)**');

    const none = await runCli(['trend', join(dir, 'nights', 'nothing-here')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing-here: no such file or directory/);
  });
});
