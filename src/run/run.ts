import { askAll } from './stages/ask.js';
import { changedSinceCheck } from '../dataset/read.js';
import { planRun, type Plan } from './stages/plan.js';
import { Recorder } from './stages/record.js';
import { summarise, type RunOutcome } from './stages/summarise.js';
import type { RunOptions } from './options.js';
import { OpenedDatasets } from './stop-reasons.js';
import { Stopping } from './stopping.js';

export type { RunOutcome } from './stages/summarise.js';

/**
 * A run, stage by stage (src/run/stages/):
 * 1. plan: the options (a resumed run's from its journal) and the dataset checked in one streaming pass, the journal's
 *    results looked up, the shard and the repeats counted; every problem is found before anything is sent;
 * 2. ask: the questions and conversations the journal lacks (kept from the check when they fit in memory, else read
 *    from the dataset again as a stream), through one pool of connections, at the rate the service allows, retried,
 *    until done or stopped (an interrupt, the circuit breaker);
 * 3. judge: each reply, as soon as its slot has gone to the next request;
 * 4. record: each result, appended to the journal as it is judged (a conversation's turns together);
 * 5. summarise: the report, its results scored in dataset order, read back from the journal.
 * Memory grows with concurrency, not with the number of questions.
 */
export async function runEvaluation(options: RunOptions): Promise<RunOutcome> {
  const datasets = new OpenedDatasets();
  try {
    const plan = await planRun(options, datasets);
    const stopping = new Stopping(plan.secrets);
    const record = await Recorder.open(plan, stopping.stop);
    const asked = await askAll(plan, record, stopping); // judged and recorded as it goes
    await tellChangedSinceCheck(plan);
    return await summarise(plan, record, asked);
  } finally {
    await datasets.close();
  }
}

/**
 * A set asked from memory is asked as it was checked, whatever happens to its file meanwhile: a file that changed is
 * said, so nobody takes the reports for the new version's (a set read again while asking stops at the change).
 */
async function tellChangedSinceCheck(plan: Plan): Promise<void> {
  if (!plan.items) return;
  const diff = await changedSinceCheck(plan.source);
  if (diff) {
    plan.o.onWarning?.(`${plan.source.name} changed while its questions were being asked (${diff}): they were asked as the file was checked (sha256 ${plan.dataset.sha256}), which the reports describe; run again to measure the new version`);
  }
}
