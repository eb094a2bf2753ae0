import { sampleLog, type SampleOptions } from '../sample/sample.js';
import { renderSummary, type SampleSummary } from '../sample/summary.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';

export interface SampleJobResult extends JobResult {
  /** What was read, folded, scrubbed, drawn and written; absent when the job stopped on an error. */
  summary?: SampleSummary;
}

/** `answer-eval sample`: a question set drawn from a log of questions asked, and a summary of what was done. */
export const sample = (o: SampleOptions, io?: JobIo): Promise<SampleJobResult> => {
  const result: SampleJobResult = { exitCode: 0 };
  return job(io, result, async (ctx) => {
    result.summary = await sampleLog(o);
    ctx.out.print(renderSummary(result.summary));
  });
};
