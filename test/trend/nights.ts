import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_KB, SAMPLE_QUESTIONS, startEngine } from '../../src/engine/index.js';
import type { Outcome } from '../../src/model/outcome.js';
import { writeReports } from '../../src/report/write.js';
import { runEvaluation } from '../../src/run/run.js';
import { startFrontServer, type FrontServer } from '../helpers/front-server.js';
import { item } from '../helpers/spec-server.js';

/**
 * Thirty nightly runs, set up so that what `trend` must find is known:
 *
 * - the embedded engine answers behind a front server (one URL per knowledge-base version, as a redeployed service
 *   would have), with seeded faults (5xx retried, malformed bodies ending in error) and a new seed every night;
 * - knowledge-base edit 1 before night 10: entry 40 (power_outage) loses its examples: q041 and q042 fail on nights
 *   10-19; edit 2 before night 20 restores 40 and takes the examples of 30 (submit_reading): q032-q034 fail from
 *   night 20; the edits are local: q100 (out of scope) is answered by mistake before and after them, so it never passed;
 * - the dataset changes on nights 15 and 16 (q009 expects another label there) and back on night 17;
 * - the front server answers some questions itself: F1-F4 get a right top-1 on even nights and a wrong one on odd
 *   nights (flaky); W is wrong on night 5 only (two flips: flaky at 2 flips, not at 3); Z is wrong on the last
 *   night only (one flip, a new failure).
 */
export const NIGHTS = 30;
export const EDITS = [10, 20] as const;
export const FLAKY = ['F1', 'F2', 'F3', 'F4'];
export const TWICE = 'W';
export const NEW_FAILURE = 'Z';
export const BROKEN_BY_EDIT_2 = ['q032', 'q033', 'q034'];
export const BROKEN_BY_EDIT_1 = ['q041', 'q042'];
export const DATASET_EDITED = 'q009';

const SAMPLE_IDS = [
  'q001', 'q002', 'q004', 'q005', 'q006', 'q007', 'q009', 'q010', 'q011', 'q012', 'q019', 'q020', 'q021', 'q022', 'q023',
  'q032', 'q033', 'q034', 'q041', 'q042', 'q043', 'q044', 'q045', 'q046', 'q047', 'q050', 'q054', 'q058', 'q064', 'q070', 'q100',
];

export const nightDate = (n: number): Date => new Date(Date.UTC(2026, 0, 1 + n, 2, 17));

function knowledgeBases(dir: string): string[] {
  const lines = readFileSync(SAMPLE_KB, 'utf8').trimEnd().split('\n');
  const edit = (seq: number) =>
    `${lines.map((l) => (JSON.parse(l) as { sequence_number: number }).sequence_number === seq ? JSON.stringify({ ...JSON.parse(l), examples: ['xylophone tuning lessons'] }) : l).join('\n')}\n`;
  return [['kb-1.jsonl', `${lines.join('\n')}\n`], ['kb-2.jsonl', edit(40)], ['kb-3.jsonl', edit(30)]].map(([name, text]) => {
    writeFileSync(join(dir, name!), text!);
    return join(dir, name!);
  });
}

function datasets(dir: string): [string, string] {
  const [header, ...rows] = readFileSync(SAMPLE_QUESTIONS, 'utf8').trimEnd().split('\n');
  const picked = rows.filter((r) => SAMPLE_IDS.includes(r.split(',')[0]!));
  const own = [...FLAKY, TWICE, NEW_FAILURE].map((id) => `${id},front question ${id},,flaky-right,,en,front|en`);
  const v1 = [header, ...picked, ...own].join('\n');
  const v2 = v1.replace(/^q009,(.*),10,bill_explained,/m, 'q009,$1,10,bill_copy,');
  if (v2 === v1) throw new Error('q009 not edited');
  const paths = [join(dir, 'questions-1.csv'), join(dir, 'questions-2.csv')] as const;
  writeFileSync(paths[0], `${v1}\n`);
  writeFileSync(paths[1], `${v2}\n`);
  return [...paths];
}

const right = { body: { answers: [item(500, 80, { label: 'flaky-right' }), item(501, 70, { label: 'flaky-wrong' })] } };
const wrong = { body: { answers: [item(501, 80, { label: 'flaky-wrong' }), item(500, 70, { label: 'flaky-right' })] } };

export interface Nights {
  /** The parent directory of the nights (one sub-directory each, named so that name order is not time order). */
  root: string;
  /** Per night, per question id: the outcome its report holds. */
  outcomes: Map<string, Outcome>[];
}

/** Runs the thirty nights in-process (runEvaluation + writeReports, report.json only) into `root`. */
export async function buildNights(root: string): Promise<Nights> {
  mkdirSync(root, { recursive: true });
  const kbs = knowledgeBases(root);
  const [ds1, ds2] = datasets(root);
  let night = 0;
  const own = (text: string) => {
    const id = /^front question (\w+)$/.exec(text)?.[1];
    if (id === undefined) return undefined;
    if (FLAKY.includes(id)) return night % 2 === 0 ? right : wrong;
    if (id === TWICE) return night === 5 ? wrong : right;
    return night === NIGHTS - 1 ? wrong : right;
  };
  const fronts: FrontServer[] = [];
  for (let k = 0; k < kbs.length; k++) fronts.push(await startFrontServer(own));
  const outcomes: Map<string, Outcome>[] = [];
  try {
    for (night = 0; night < NIGHTS; night++) {
      const version = night < EDITS[0] ? 0 : night < EDITS[1] ? 1 : 2;
      const engine = await startEngine({ kb: kbs[version]!, code: 'c', faults: { errorRate: 0.1, malformedRate: 0.02 }, seed: night + 1 });
      const front = fronts[version]!;
      front.target = { url: engine.url, code: engine.code };
      try {
        const { data, report } = await runEvaluation({
          dataset: night === 15 || night === 16 ? ds2 : ds1,
          baseUrl: front.url,
          agent: engine.agent,
          agentCode: 'any',
          concurrency: 4,
          retries: 2,
          backoff: { baseMs: 1, capMs: 5 },
        });
        data.head.run.startedAt = nightDate(night).toISOString();
        data.head.run.finishedAt = new Date(nightDate(night).getTime() + data.head.run.durationMs).toISOString();
        await writeReports(data, join(root, `run-${(night * 7) % NIGHTS}`), ['json']);
        outcomes.push(new Map(report.results.map((r) => [r.id, r.outcome])));
      } finally {
        await engine.close();
      }
    }
  } finally {
    await Promise.all(fronts.map((f) => f.close()));
  }
  return { root, outcomes };
}
