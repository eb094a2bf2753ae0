import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openDataset, type DatasetSource } from '../dataset/source.js';
import { causeHoldsSecret } from '../client/cause.js';
import type { Secrets } from '../client/secrets/secrets.js';
import { AnswerEvalError, DatasetChangedError, InterruptedError, RunAbortedError } from '../errors.js';
import type { ResultStore } from './store.js';

/** The datasets a run opened itself (from a path), closed when it ends: a pipe's temporary copy goes with them. */
export class OpenedDatasets {
  #opened: DatasetSource[] = [];

  async open(dataset: string | DatasetSource, encoding: string | undefined): Promise<DatasetSource> {
    if (typeof dataset !== 'string') return dataset;
    const source = await openDataset(dataset, { encoding });
    this.#opened.push(source);
    return source;
  }

  async close(): Promise<void> {
    for (const source of this.#opened.splice(0)) await source.close();
  }
}

/** The items of `source` until reading them fails; the error goes to `onError` instead of ending the run. */
export async function* endOnError<T>(source: AsyncIterable<T>, onError: (error: unknown) => void): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    onError(error);
  }
}

/** A dataset that changed while asking, with where its questions so far are journaled and how to go on. */
export function datasetStop(error: unknown, journalDir: string | undefined, resumeDir = journalDir): Error {
  if (!(error instanceof DatasetChangedError) || journalDir === undefined) return error as Error;
  return new DatasetChangedError(
    `${error.message} in ${join(journalDir, 'journal.jsonl')}. --resume refuses a changed dataset (its sha256 differs): put the checked ` +
      `version back and run answer-eval run --resume ${resumeDir} to finish this run, or start a new run (without --resume) on the new file`,
    3,
    { cause: error },
  );
}

/**
 * The journal could not be written (a full disk): keeps the results whose lines reached the disk, drops the
 * others from the report (they are asked again on resume), and says so.
 */
export async function journalFailure(error: Error, path: string, dir: string, store: ResultStore): Promise<Error> {
  const before = store.count;
  const onDisk = await stat(path).then((s) => s.size, () => 0);
  store.keepWithin?.(onDisk);
  const lost = before - store.count;
  return new AnswerEvalError(
    `${error.message}; the run stopped. ${store.count} results are in the journal` +
      `${lost > 0 ? `; ${lost} finished questions did not reach it and are left out of the reports` : ''}. ` +
      `Once there is space, answer-eval run --resume ${dir} asks what is missing and writes every report`,
    'JOURNAL',
    3,
    { cause: error },
  );
}

/** Why an outside stop (the caller's signal: SIGINT, SIGTERM) stopped the run. */
export function asStopReason(reason: unknown): Error {
  if (reason instanceof AnswerEvalError) return reason;
  return new RunAbortedError(`interrupted${reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : ''}`, { cause: reason });
}

/** A stop while the dataset is checked: nothing was sent, nor journaled (a resumed run's journal is as it was). */
export function checkInterrupted(reason: unknown, resuming: boolean): Error {
  if (resuming) return asStopReason(reason); // its advice (--resume DIR) holds
  const by = reason instanceof InterruptedError ? ` by ${reason.signal}` : '';
  return new RunAbortedError(`interrupted${by} while the dataset was checked: nothing was sent; run the command again`, { cause: reason });
}

/** A stop reason as the report and stderr say it: an error of any kind may quote what the service sent. */
export function maskedError(error: Error, secrets: Secrets): Error {
  const message = secrets.mask(error.message);
  if (message !== error.message) error.message = message;
  if (error.stack !== undefined && secrets.holds(error.stack)) error.stack = secrets.mask(error.stack);
  if (causeHoldsSecret(error, secrets)) delete error.cause;
  return error;
}

export function toError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new Error(String(reason));
}
