import { open } from 'node:fs/promises';
import { AnswerEvalError, DatasetChangedError } from '../errors.js';
import { stampDifference, stampOf, verified, type FileStamp, type Fingerprint, type FingerprintRecorder } from '../dataset/fingerprint.js';
import { openDataset, readFailure, type DatasetFormat } from '../dataset/source.js';

/** A log opened to be read twice: the file itself, or the temporary copy of a pipe (`<(zcat log.csv.gz)`). */
export interface LogSource {
  /** The path as given: what messages and the question set name. */
  readonly name: string;
  readonly file: string;
  readonly format: DatasetFormat;
  /** A declared encoding (checkEncoding); undefined: UTF-8, or UTF-16 by its byte-order mark. */
  readonly encoding: string | undefined;
  /** Deletes the temporary copy, if any. */
  close(): Promise<void>;
}

/**
 * Opens a log as the dataset reader opens a question set (the format by its extension, else `{` first: JSONL; the
 * encoding checked), a pipe or device copied first into the OS temp directory, checked as it comes (pipe-copy.ts).
 */
export const openLog = (path: string, encoding: string | undefined): Promise<LogSource> => openDataset(path, { encoding, kind: 'log' });

/**
 * The bytes of one reading of the log. The first records what it read (`recorder`); the second is compared with
 * that, block by block (`checked`), so that a log written to between the two (a live log) is refused rather than
 * sampled from two different files.
 */
export async function* logBytes(source: LogSource, pass: { recorder: FingerprintRecorder; opened: (stamp: FileStamp) => void } | { checked: Fingerprint }): AsyncGenerator<Buffer> {
  const handle = await open(source.file).catch((error: unknown) => {
    throw readFailure(error, source.name);
  });
  const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
  try {
    const now = stampOf(await handle.stat());
    if ('recorder' in pass) {
      pass.opened(now);
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        pass.recorder.update(chunk);
        yield chunk;
      }
      return;
    }
    const changed = (what: string): DatasetChangedError =>
      new DatasetChangedError(`${source.name} changed while it was being sampled (${what}); sample reads a log twice: run it again on a copy that nothing writes to`, 2);
    const diff = stampDifference(pass.checked.stat, now);
    if (diff !== undefined) throw changed(diff);
    yield* verified(stream as AsyncIterable<Buffer>, pass.checked, changed);
  } catch (error) {
    if (error instanceof AnswerEvalError) throw error;
    throw readFailure(error, source.name);
  } finally {
    stream.destroy(); // a reader that stops early must not leave the file open (DEP0137)
  }
}
