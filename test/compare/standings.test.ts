import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPARE_JUNIT_FILE, CompareJunit } from '../../src/compare/render/junit.js';
import { compareData, compareReports } from '../../src/compare/compare.js';
import { Standings } from '../../src/compare/standings.js';
import { regressionGates } from '../../src/gate/gates.js';
import { renderCompareConsole } from '../../src/compare/render/console.js';
import { renderCompareMarkdown } from '../../src/compare/render/markdown.js';
import { renderCompareHtml } from '../../src/compare/render/html/index.js';
import { listedChanges } from '../../src/compare/write.js';
import { fromReport } from '../../src/model/source.js';
import { renderJunit } from '../../src/report/junit.js';
import { withMetrics } from '../../src/score/metrics/index.js';
import type { Report } from '../../src/model/report.js';
import { countedCases, idsOf, readJunit } from '../helpers/junit.js';
import { tempDir } from '../helpers/tmp.js';
import { conversationPair, FILES, report, result } from './fixtures.js';

const quarantine = (...ids: string[]) => ({ file: 'q.txt', ids: new Map(ids.map((id, i) => [id, i + 1])) });

/** junit.xml of HEAD judged against BASE, read back by junit2json. */
async function junitAgainst(base: Report, head: Report, ids: string[] = []) {
  const standings = new Standings('base/report.json');
  const comparison = compareReports(base, head, { files: FILES, resamples: 50, quarantine: quarantine(...ids) }, undefined, standings);
  const xml = [...renderJunit(withMetrics(fromReport(head)), { baseline: standings })].join('');
  return { comparison, standings, junit: await readJunit(xml), xml };
}

describe('junit.xml against a baseline', () => {
  const base = report([
    result('broke', 'correct'),
    result('still', 'wrong'),
    result('mended', 'wrong'),
    result('kept', 'correct'),
    result('was-error', 'error'),
    result('reworded', 'correct'),
    result('to-error', 'correct'),
    result('flaky', 'fallback_ok', null),
    result('u', 'unlabeled'),
    result('gone', 'wrong'),
  ]);
  const head = report([
    result('broke', 'wrong'),
    result('still', 'abstained', null),
    result('mended', 'correct'),
    result('kept', 'correct'),
    result('was-error', 'wrong'),
    result('reworded', 'wrong', 1, 90, { question: 'reworded, now' }),
    result('to-error', 'error'),
    result('flaky', 'fallback_missed'),
    result('u', 'unlabeled'),
    result('added', 'wrong'),
    result('added-ok', 'correct'),
    result('u-error', 'error', 1, 90, { expected: { expect: null } }),
  ]);

  it('fails what this change broke (and new or edited failing questions); skips old failures and the quarantined, saying why', async () => {
    const { junit, standings } = await junitAgainst(base, head, ['flaky']);
    const suite = junit.suites[0]!;
    expect(idsOf(suite, 'failure')).toEqual(['added', 'broke', 'reworded']);
    expect(idsOf(suite, 'skipped')).toEqual(['flaky', 'still', 'was-error']);
    expect(idsOf(suite, 'error')).toEqual(['to-error', 'u-error']);
    expect(idsOf(suite, 'passed')).toEqual(['added-ok', 'kept', 'mended']);
    const message = (id: string) => suite.cases.find((c) => c.id === id)!.message!;
    expect(message('broke')).toMatch(/^broken \(it passed in the baseline\): wrong: /);
    expect(message('added')).toMatch(/^new \(not in the baseline\): wrong: /);
    expect(message('reworded')).toMatch(/^edited since the baseline \(its text, language or expectation: not compared\): wrong: /);
    expect(message('still')).toMatch(/^failing in the baseline too: abstained: /);
    expect(message('flaky')).toMatch(/^broke, but quarantined: fallback_missed: /);
    expect(message('was-error')).toMatch(/^not judged in the baseline \(it ended in error there\): wrong: /);
    // the suite's counts are its testcases', and the totals add the (absent) gates
    expect(suite.counts).toEqual(countedCases(suite));
    expect(suite.counts).toEqual({ tests: 11, failures: 3, errors: 2, skipped: 3 });
    expect(junit.totals).toMatchObject({ tests: 11, failures: 3, errors: 2, skipped: 3 });
    expect(suite.properties).toMatchObject({ baseline: 'base/report.json', unlabeled: '1' });
    expect(standings.skipped).toBe(3);
  });

  it('without a baseline it is as before: every failing question fails, nothing is skipped', async () => {
    const xml = [...renderJunit(withMetrics(fromReport(head)))].join('');
    const suite = (await readJunit(xml)).suites[0]!;
    expect(idsOf(suite, 'failure')).toEqual(['added', 'broke', 'flaky', 'reworded', 'still', 'was-error']);
    expect(suite.counts).toEqual({ ...countedCases(suite), skipped: 0 });
    expect(suite.properties['baseline']).toBeUndefined();
  });

  it('conversations: a broken one fails, one failing in both runs is skipped, a quarantined one is skipped; the gate counts only the real ones', async () => {
    const { base: b, head: h, IMG } = conversationPair();
    const { junit, comparison } = await junitAgainst(b, h, ['breaks']);
    const suite = junit.suites[0]!;
    expect(idsOf(suite, 'failure')).toEqual(['edited', 'new', `x ${IMG}`].sort());
    expect(idsOf(suite, 'skipped')).toEqual(['breaks', 'still']);
    expect(idsOf(suite, 'error')).toEqual(['errs']);
    expect(suite.counts).toEqual(countedCases(suite));
    expect(comparison.conversations!.counts).toMatchObject({ broken: 2, brokenByError: 1, quarantined: 1 });
    expect(comparison.conversations!.quarantined.map((c) => c.id)).toEqual(['breaks']);
    const gate = regressionGates(comparison, { failOn: 'regression' }).find((g) => g.gate === '--fail-on regression (conversations)')!;
    expect(gate.message).toBe(`1 broken conversation (x ${IMG} at turn 2) with --fail-on regression; besides, 1 broke, but quarantined (breaks): not counted`);
    // its turns are quarantined with it: the turn that broke is no broken question either
    expect(comparison.questions.quarantined.map((q) => q.id)).toEqual(['breaks#2']);
    expect(comparison.questions.broken.map((q) => q.id)).not.toContain('breaks#2');
    // shown apart on the console, in compare.md and compare.html
    const console = renderCompareConsole(comparison);
    expect(console).toContain('conversations: 5 common, 1 added, 1 removed, 2 changed (a turn edited, added or removed); 2 broken (1 by an error, not a regression), 1 broke, but quarantined, 1 fixed');
    expect(console).toContain('  conversation broke, but quarantined: breaks at turn 2 (correct -> wrong)');
    expect(renderCompareMarkdown(comparison)).toContain('### Conversations that broke, but are quarantined (not counted as regressions) (1)');
    const html = [...renderCompareHtml(comparison, listedChanges(comparison))].join('');
    expect(html).toContain('<caption>Broke, but quarantined (not counted as regressions) (1)</caption>');
    expect(html).toContain('1 conversation broke, but quarantined');
  });

  it('a conversation is quarantined by the id of the turn that changed too', async () => {
    const { base: b, head: h } = conversationPair();
    const { comparison } = await junitAgainst(b, h, ['breaks#2']);
    expect(comparison.conversations!.quarantined.map((c) => c.id)).toEqual(['breaks']);
    // the turn itself is a question that broke: quarantined too
    expect(comparison.questions.quarantined.map((q) => q.id)).toEqual(['breaks#2']);
    expect(comparison.quarantine).toMatchObject({ ids: 1, unknownCount: 0 });
  });

  it('compare renders the same file in its first pass over HEAD, settling each failure once BASE is read, and leaves nothing else', async () => {
    const many = (n: number, shift: number) => report(Array.from({ length: n }, (_, i) => result(`q${i}`, (i + shift) % 3 === 0 ? 'wrong' : 'correct')));
    const { base: cb, head: ch } = conversationPair();
    // the fixtures above, conversations, and enough questions for several batches of testcases
    for (const [b, h] of [[base, head], [cb, ch], [many(3000, 0), many(3000, 1)]] as const) {
      const dir = tempDir('answer-eval-compare-junit-');
      const standings = new Standings('base/report.json');
      const junit = new CompareJunit(dir);
      compareData(fromReport(b), fromReport(h), { files: FILES, resamples: 50 }, undefined, standings, junit.see);
      await junit.write(fromReport(h), undefined, standings, dir);
      junit.discard();
      const expected = [...renderJunit(withMetrics(fromReport(h)), { baseline: standings })].join('');
      expect(readFileSync(join(dir, COMPARE_JUNIT_FILE), 'utf8')).toBe(expected);
      expect(readdirSync(dir)).toEqual([COMPARE_JUNIT_FILE]);
    }
  });
});
