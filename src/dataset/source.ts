import { open, rm, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { formatByName, isDatasetName, type DatasetFormat } from '../model/dataset-names.js';
import { checkEncoding } from './decode.js';
import { copyOnce, type PipeKind } from './pipe-copy.js';
import { readFailureMessage } from '../util/read-failure.js';
import type { Fingerprint } from './fingerprint.js';

export type { DatasetFormat };

/**
 * A dataset ready to be read as many times as a run needs. A pipe (`-d <(cat ds.csv)`, a FIFO, `/dev/stdin`)
 * can be read only once, so its bytes are first copied into a temporary file, deleted by `close()`.
 */
export interface DatasetSource {
  /** The path as given: what messages and reports name. */
  readonly name: string;
  /** The file read: the dataset itself, or the temporary copy of a pipe. */
  readonly file: string;
  readonly format: DatasetFormat;
  /** The declared encoding; undefined: UTF-8 (or UTF-16 with a BOM). */
  readonly encoding: string | undefined;
  /** True when `file` is a temporary copy of a pipe. */
  readonly copied: boolean;
  /** The size of `file` when it was opened: how a run judges the set's size before reading it. */
  readonly bytes: number;
  /** What the check pass read, for the asking pass to verify (set by `checkQuestions`). */
  checked?: Fingerprint;
  /** Deletes the temporary copy, if any. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A declared encoding (`--encoding`), any label TextDecoder knows. */
  encoding?: string | undefined;
  /** What a pipe should hold (see pipe-copy.ts): a question set unless said. */
  kind?: PipeKind;
}

export { isDatasetName };

/** Opens a dataset by path: a regular file as it is, anything else readable (a pipe, a device) as a temporary copy. */
export async function openDataset(path: string, options: OpenOptions = {}): Promise<DatasetSource> {
  const encoding = checkEncoding(options.encoding);
  const info = await stat(path).catch((error: unknown) => {
    throw readFailure(error, path);
  });
  if (info.isDirectory()) throw readFailure(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }), path);
  if (info.isFile()) {
    const format = await formatOf(path, path).catch((error: unknown) => {
      throw readFailure(error, path);
    });
    return { name: path, file: path, format, encoding, copied: false, bytes: info.size, close: async () => {} };
  }
  // removed on exit and on a signal nobody else handles (a second SIGINT exits at once: the copy goes too)
  const copy = await copyOnce(path, { encoding, format: formatByName(path), kind: options.kind ?? 'question set' }, readFailure);
  return {
    name: path,
    file: copy.file,
    format: await formatOf(path, copy.file),
    encoding,
    copied: true,
    bytes: (await stat(copy.file)).size,
    close: async () => {
      copy.undo();
      await rm(copy.dir, { recursive: true, force: true });
    },
  };
}

/** CSV or JSONL by the extension; without a known one (a pipe), JSONL when the first character is `{`. */
async function formatOf(name: string, file: string): Promise<DatasetFormat> {
  const known = formatByName(name);
  if (known) return known;
  const handle = await open(file);
  try {
    const start = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    // past a BOM, blanks and the NUL bytes of UTF-16
    const first = start.subarray(0, bytesRead).find((b) => b > 0x20 && b !== 0xef && b !== 0xbb && b !== 0xbf && b !== 0xff && b !== 0xfe);
    return first === 0x7b ? 'jsonl' : 'csv';
  } finally {
    await handle.close();
  }
}

/** A read error as a dataset problem naming the path; anything unexpected passes through. */
export function readFailure(error: unknown, path: string): Error {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && /^\/(dev|proc\/self)\/fd\//.test(path)) {
    return new InputError([{ file: path, line: 0, message: 'no such file (a pipe such as <(...) lasts only as long as the command that opened it: give the dataset again with --dataset)' }], { cause: error });
  }
  const message = readFailureMessage(error, 'a .csv or .jsonl file');
  return message === undefined ? (error as Error) : new InputError([{ file: path, line: 0, message }], { cause: error });
}
