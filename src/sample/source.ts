import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AnswerEvalError, DatasetChangedError } from '../errors.js';
import { stampDifference, stampOf, verified, type FileStamp, type Fingerprint, type FingerprintRecorder } from '../dataset/fingerprint.js';
import { MAX_PIPE_BYTES, tempDirRemovedOnExit } from '../dataset/pipe-copy.js';
import { openDataset, readFailure, type DatasetFormat } from '../dataset/source.js';
import { waitWatch } from '../util/bounded-read.js';
import { sizeText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';

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
 * encoding checked), a pipe or device copied first into the OS temp directory, up to MAX_PIPE_BYTES.
 */
export async function openLog(path: string, encoding: string | undefined): Promise<LogSource> {
  const info = await stat(path).catch((error: unknown) => {
    throw readFailure(error, path);
  });
  if (info.isFile() || info.isDirectory()) return openDataset(path, { encoding });
  const { dir, undo } = tempDirRemovedOnExit('answer-eval-log-');
  const remove = async (): Promise<void> => {
    undo();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const file = join(dir, `log${extname(path)}`);
    await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), bounded(path, encoding), createWriteStream(file, { flags: 'wx' }));
    const copy = await openDataset(file, { encoding });
    return { name: path, file, format: copy.format, encoding: copy.encoding, close: remove };
  } catch (error) {
    await remove();
    if (error instanceof AnswerEvalError) throw error;
    throw readFailure(error, path);
  }
}

/**
 * A pipe's chunks, refused past MAX_PIPE_BYTES (a stream that never ends), at a line longer than a row may be, or,
 * unless it is UTF-16 (declared, or by its byte-order mark), at a NUL byte: /dev/zero or a binary file is refused at
 * once, not after 512 MiB. A wait for input is said.
 */
function bounded(path: string, encoding: string | undefined) {
  const refuse = (why: string): AnswerEvalError => new AnswerEvalError(`${path}: ${why}`, 'LOG_PIPE', 2);
  return async function* (chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let size = 0;
    let lineStart = 0;
    let utf16 = encoding !== undefined && /^utf-?16/i.test(encoding);
    const waiting = waitWatch(path);
    try {
      for await (const chunk of chunks) {
        waiting.poke();
        if (size === 0) utf16 ||= (chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff);
        if (!utf16 && chunk.includes(0)) throw refuse(`holds a NUL byte at byte ${size + chunk.indexOf(0)}: not a log of questions (a binary file, or a device such as /dev/zero)`);
        const first = chunk.indexOf(10);
        if ((first < 0 ? size + chunk.length : size + first) - lineStart > limits.rowBytes) {
          throw refuse(`a line from byte ${lineStart} is longer than ${sizeText(limits.rowBytes)}: not a log of questions (a stream without line breaks)`);
        }
        if (first >= 0) lineStart = size + chunk.lastIndexOf(10) + 1;
        size += chunk.length;
        if (size > MAX_PIPE_BYTES) {
          throw refuse(`the pipe gave more than ${sizeText(MAX_PIPE_BYTES)} without ending (a pipe is copied to ${tmpdir()} first, to be read twice): pass a larger log as a file`);
        }
        yield chunk;
      }
    } finally {
      waiting.stop();
    }
  };
}

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
