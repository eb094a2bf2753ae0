import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { buildTrend } from '../../src/trend/build.js';
import { findRuns } from '../../src/trend/discover.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureRuns } from './fixture.js';

const dir = tempDir('answer-eval-trend-unreadable-');

/** Cuts a report.json to `share` of its bytes, as a full disk or a transfer cut short leaves it. */
function cutOff(path: string, share: number): void {
  const bytes = readFileSync(path);
  writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length * share)));
}

/** Builds the trend of `reports`, leaving out the runs that cannot be read; returns it with what was left out. */
async function trendLeavingOut(reports: string[]) {
  const leftOut: string[] = [];
  const trend = await buildTrend(reports, { gates: { maxNewFailures: 0 }, onUnreadable: (path, error) => leftOut.push(`${path} | ${error.message}`) });
  return { trend, leftOut };
}

describe('trend with a run it cannot read', () => {
  it('leaves out a report cut off among good ones, says which and why, and is the trend of the others', async () => {
    const root = join(dir, 'middle');
    writeFixtureRuns(root, 5, 150);
    const reports = await findRuns([root]);
    const bad = join(root, 'run-2', 'report.json');
    cutOff(bad, 0.6); // inside its results: found only once some were read
    const { trend, leftOut } = await trendLeavingOut(reports);
    expect(leftOut).toEqual([expect.stringMatching(new RegExp(`^${bad} \\| ${bad}: cut off: the file ends before its results close, after \\d+ results \\(`))]);
    expect(trend.runs.map((r) => r.path)).toEqual(reports.filter((p) => p !== bad));
    // nothing of the cut run is left in the history: the same trend as without it
    expect(trend).toEqual(await buildTrend(reports.filter((p) => p !== bad), { gates: { maxNewFailures: 0 } }));
  });

  it('leaves out the latest run cut off, and one cut before its results', async () => {
    const root = join(dir, 'latest');
    writeFixtureRuns(root, 4, 150);
    const reports = await findRuns([root]);
    cutOff(reports[3]!, 0.9);
    cutOff(reports[1]!, 0.01); // in its head
    const { trend, leftOut } = await trendLeavingOut(reports);
    expect(leftOut.map((l) => l.split(' | ')[0])).toEqual([reports[1], reports[3]]);
    expect(leftOut[0]).toContain(`${reports[1]}: cut off: the file ends before its JSON closes (`);
    expect(trend).toEqual(await buildTrend([reports[0]!, reports[2]!], { gates: { maxNewFailures: 0 } }));
  });

  it('without onUnreadable, stops at the first; with it, none readable is a ConfigError', async () => {
    const root = join(dir, 'none');
    writeFixtureRuns(root, 2, 20);
    const reports = await findRuns([root]);
    cutOff(reports[1]!, 0.8);
    await expect(buildTrend(reports)).rejects.toThrow(`${reports[1]}: cut off: the file ends before its results close`);
    cutOff(reports[0]!, 0.8);
    const leftOut: string[] = [];
    await expect(buildTrend(reports, { onUnreadable: (path) => leftOut.push(path) })).rejects.toThrow(
      new ConfigError('trend: none of the 2 runs given can be read (each is named above, with why)'),
    );
    expect(leftOut).toEqual(reports);
  });
});
