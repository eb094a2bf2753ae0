import { readAliases } from '../dataset/aliases.js';
import { scanDataset } from '../dataset/read.js';
import { checkDataset } from '../dataset/validate.js';
import { AnswerEvalError, formatProblem } from '../errors.js';
import { plural } from '../util/text.js';
import { oneLine } from '../util/terminal.js';
import type { JobIo } from './io.js';
import { job, type JobResult } from './job.js';

export interface ValidateOptions {
  /** The question set, .csv or .jsonl. */
  dataset: string;
  encoding?: string | undefined;
  /** A knowledge base to check the expectations against. */
  kb?: string | undefined;
  /** A CSV of old,new sequence numbers applied to the expectations. */
  aliases?: string | undefined;
}

/** `answer-eval validate`: checks a question set without running it (exit 2 on an error; warnings are printed). */
export const validate = (o: ValidateOptions, io?: JobIo): Promise<JobResult> =>
  job(io, { exitCode: 0 }, async (ctx) => {
    const { print } = ctx.out;
    const scan = await scanDataset(o.dataset, { encoding: o.encoding });
    // the knowledge base's reader (and its schema) loads only when one is given
    const kb = o.kb === undefined ? undefined : await (await import('../dataset/kb-refs.js')).readKbRefs(o.kb);
    const aliases = o.aliases === undefined ? undefined : await readAliases(o.aliases);
    const problems = checkDataset(scan, { ...(kb ? { kb } : {}), ...(aliases ? { aliases } : {}) });
    const errors = problems.filter((p) => p.severity === 'error').length;
    const warnings = problems.length - errors;
    const lines = problems.map((p) => `${formatProblem(p, p.severity ?? 'error')}\n`);
    const turns = scan.questions.filter((q) => q.conversation).length;
    const counted = scan.conversations > 0 ? `${plural(scan.questions.length - turns, 'question')}, ${plural(scan.conversations, 'conversation')} (${plural(turns, 'turn')})` : plural(scan.questions.length, 'question');
    const kept = scan.metadata.columns.length > 0 ? `; kept as metadata: ${scan.metadata.columns.map(oneLine).join(', ')}` : '';
    print(`${lines.join('')}${scan.path}: ${counted}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')}${kept}\n`);
    if (errors > 0) throw new AnswerEvalError(`${scan.path}: ${plural(errors, 'error')} (see above)`, 'INVALID_DATASET', 2);
  });
