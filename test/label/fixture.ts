import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_KB, startEngine } from '../../src/engine/index.js';
import { writeReports } from '../../src/report/write.js';
import { runEvaluation } from '../../src/run/run.js';

/** The sample knowledge base, to search. */
export const KB = SAMPLE_KB;

/**
 * A question set of eight single questions and one conversation: q2 labeled (sequence 1), the rest unlabeled; q6 is
 * asked most (its count), q8 has a note with a comma and a quote, q7 is out of the knowledge base.
 */
export const SET_CSV = [
  'id,question,expected_sequence,notes,count,conversation,turn',
  'q1,how can I pay my bill?,,,2,,',
  'q2,hello there,1,,,,',
  'q3,I want a refund,,"a note, with a comma",,,',
  'q4,when will my refund arrive,,,,,',
  'q5,my meter reading is wrong,,,,,',
  'q6,can i pay in installments,,,9,,',
  'q7,what is the capital of mars,,,,,',
  'q8,"how do I report a power cut, please",,"say ""hi""",,,',
  ',hello,,,,conv,1',
  ',how can I pay my bill?,,,,conv,2',
  '',
].join('\n');

/** Runs `setText` (written as `name` in `dir`) against the embedded engine on the sample knowledge base, in-process; the run's report.json goes to `dir/run`. */
export async function makeRun(dir: string, setText = SET_CSV, name = 'set.csv'): Promise<{ run: string; set: string }> {
  const set = join(dir, name);
  writeFileSync(set, setText);
  const engine = await startEngine({ kb: SAMPLE_KB, code: 'c' });
  try {
    const { data } = await runEvaluation({ dataset: set, baseUrl: engine.url, agent: engine.agent, agentCode: engine.code, concurrency: 4 });
    const run = join(dir, 'run');
    await writeReports(data, run, ['json']);
    return { run, set };
  } finally {
    await engine.close();
  }
}
