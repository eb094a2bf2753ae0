import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AnswerEvalError } from '../errors.js';
import { waitWatch } from '../util/bounded-read.js';
import { printable, sizeText } from '../util/json-lines.js';
import { limits } from '../util/limits.js';
import { removedOnExit } from '../util/removed-on-exit.js';

/**
 * The most a pipe may give as a dataset: 512 MiB, some five million questions. A pipe is copied into TMPDIR before
 * it is read (twice), so a stream that never ends (`yes | ...`, /dev/urandom) must stop somewhere: here, with a
 * message, before it fills the temp directory. A larger dataset is passed as a file.
 */
export const MAX_PIPE_BYTES = 512 * 1024 * 1024;

/** What a pipe's copy checks as it goes, to stop a stream that is no question set within a chunk or two. */
interface Guard {
  /** The declared encoding (with utf-16le or utf-16be, NUL bytes are text). */
  encoding: string | undefined;
  /** The format the name says (by its extension), if any. */
  format: 'csv' | 'jsonl' | undefined;
  /** What the pipe should hold: a question set (its CSV header must name a "question" column) or a log of questions (`sample`; any header). */
  kind: PipeKind;
}

export type PipeKind = 'question set' | 'log';

/** The word a message uses for what a pipe of `kind` should hold. */
const nounOf = (kind: PipeKind): string => (kind === 'log' ? 'log of questions' : 'question set');

const refused = (path: string, message: string, kind: PipeKind): AnswerEvalError => new AnswerEvalError(`${path}: ${message}`, kind === 'log' ? 'LOG_PIPE' : 'DATASET_PIPE', 2);

/**
 * The chunks of a pipe as they come, refused when it passes MAX_PIPE_BYTES, holds a line longer than `limits.rowBytes`
 * (/dev/zero, a stream without line breaks) or, unless it is UTF-16 (declared, or by its byte-order mark), a NUL byte
 * (/dev/urandom, a binary file), or is a question set in CSV whose first line names no "question" column (`yes |`: the
 * check pass would refuse it, after the whole copy). Says so when nothing comes for a while. Lines are not counted (a pipe of
 * `y\n` would cost more in counting than in copying): messages name the byte.
 */
function guarded(path: string, g: Guard) {
  return async function* (chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let size = 0;
    let lineStart = 0; // where the line in progress began
    // NUL bytes are text only in UTF-16 (declared, or by its byte-order mark); so is a header that does not read as ASCII
    let utf16 = g.encoding?.startsWith('utf-16') ?? false;
    let head: Buffer | undefined = Buffer.alloc(0); // the first line, until judged
    const waiting = waitWatch(path);
    try {
      for await (const chunk of chunks) {
        waiting.poke();
        if (size === 0) utf16 ||= (chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff);
        const nul = utf16 ? -1 : chunk.indexOf(0);
        if (nul >= 0) {
          throw refused(path, `holds a NUL byte (byte ${size + nul}): not a text file (a device such as /dev/urandom, or a binary file; UTF-16 without a byte-order mark needs --encoding utf-16le)`, g.kind);
        }
        // lines within a chunk are shorter than it: only the one it continues and the one it leaves open count
        const first = chunk.indexOf(10);
        if ((first < 0 ? size + chunk.length : size + first) - lineStart > limits.rowBytes) {
          throw refused(path, `a line from byte ${lineStart} is longer than ${sizeText(limits.rowBytes)}: not a ${nounOf(g.kind)} (a device such as /dev/zero, or a stream without line breaks)`, g.kind);
        }
        if (first >= 0) lineStart = size + chunk.lastIndexOf(10) + 1;
        if (head !== undefined && !utf16 && g.kind === 'question set') {
          head = Buffer.concat([head, chunk.subarray(0, first < 0 ? chunk.length : first)]);
          if (first >= 0 || head.length >= 64 * 1024) {
            checkHeader(path, head, g.format);
            head = undefined;
          }
        } else head = undefined;
        size += chunk.length;
        if (size > MAX_PIPE_BYTES) {
          throw refused(path, `the pipe gave more than ${sizeText(MAX_PIPE_BYTES)} without ending (the most read from a pipe, which is copied to ${tmpdir()} first): pass a larger ${g.kind === 'log' ? 'log' : 'dataset'} as a file`, g.kind);
        }
        yield chunk;
      }
    } finally {
      waiting.stop();
    }
  };
}

/** Refuses a CSV (by its name, or not starting with `{`) whose first line has no "question" in it: no header of a question set. */
function checkHeader(path: string, line: Buffer, format: Guard['format']): void {
  const text = line.toString('utf8').replace(/^\uFEFF/, '').trim();
  if (text === '' || (format ?? (text.startsWith('{') ? 'jsonl' : 'csv')) !== 'csv' || text.includes('question')) return;
  throw refused(path, `its first line ("${printable(text, 40)}") names no "question" column: not a question set (a CSV begins with a header such as id,question)`, 'question set');
}

/**
 * A new temporary directory (the OS temp dir, `TMPDIR`) removed on exit and on a signal, as removedOnExit. The
 * handlers come first: a SIGTERM that finds no handler yet ends the process at once (the default action), which
 * would leave the directory behind.
 */
function tempDirRemovedOnExit(prefix: string): { dir: string; undo: () => void } {
  let dir = '';
  const undo = removedOnExit(() => dir);
  dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, undo };
}

/**
 * Copies what a pipe holds into a new temporary directory (the OS temp dir, `TMPDIR`), checked as it goes (see
 * guarded). The directory is removed on any failure, and on a signal while copying.
 */
export async function copyOnce(path: string, g: Guard, readFailure: (error: unknown, path: string) => Error): Promise<{ dir: string; file: string; undo: () => void }> {
  const { dir, undo } = tempDirRemovedOnExit(g.kind === 'log' ? 'answer-eval-log-' : 'answer-eval-dataset-');
  const file = join(dir, `dataset${extname(path)}`);
  try {
    await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), guarded(path, g), createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    undo();
    await rm(dir, { recursive: true, force: true });
    if (error instanceof AnswerEvalError) throw error;
    const e = error as NodeJS.ErrnoException;
    if (e.syscall === 'write' || e.code === 'ENOSPC' || e.code === 'EDQUOT') {
      throw new AnswerEvalError(
        `${path} is a pipe, read once into a temporary copy, but the copy in ${tmpdir()} failed (${e.code ?? e.message}): ` +
          `set TMPDIR to a directory with room, or pass the ${g.kind === 'log' ? 'log' : 'dataset'} as a file`,
        'DATASET_COPY',
        2,
        { cause: error },
      );
    }
    throw readFailure(error, path);
  }
  return { dir, file, undo };
}
