import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderString } from '../../src/report/formats.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

/**
 * `runs` report directories under `root` from the report fixture (hostile strings in questions and answers), one a
 * day; the service moves to another URL at run `moveAt`, and the dataset's path is hostile too.
 */
export function writeFixtureRuns(root: string, runs: number, questions = 200, moveAt = Math.floor(runs / 2)): string[] {
  return Array.from({ length: runs }, (_, k) => {
    const report = makeReport(questions, { seed: 7 + (k % 3) });
    report.run.startedAt = new Date(Date.UTC(2026, 1, 1 + k, 2)).toISOString();
    if (k >= moveAt) report.run.baseUrl = `https://answers.example.test/${HOSTILE.script}`;
    const dir = join(root, `run-${k}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.json'), renderString('json', report));
    return dir;
  });
}
