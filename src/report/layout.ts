import { createReadStream, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../errors.js';
import { readFailureMessage } from '../util/read-failure.js';
import { longLineMessage, sizeText, splitLines } from '../util/json-lines.js';
import { limits } from '../util/limits.js';

/**
 * The layout answer-eval writes a report.json in (src/report/json.ts), found in a file without reading it whole:
 * the head (two-space indent) up to `"results": [`, then one result per line (or, as JSON.stringify(r, null, 2)
 * and jq write it, from a line `    {` to a line `    }`), `  ]` and `}`. Every read here is linear in the file and
 * holds at most one line (`limits.lineBytes`) or the head (`limits.reportHeadBytes`): a report followed by gigabytes of NUL bytes
 * or garbage is refused at the first of them.
 */

export const RESULTS_KEY = Buffer.from(',\n  "results": [');
export const cannotRead = (path: string, error: unknown): ConfigError =>
  new ConfigError(`${path}: cannot read the report: ${readFailureMessage(error, 'a report.json, or the run directory holding one') ?? String(error)}`, { cause: error });

/**
 * A report.json that ends too soon (`why`: where it ends): written or copied only in part. Beside its run's
 * journal, `run --resume` writes it again without asking anything (every result is in the journal).
 */
export function cutOff(path: string, why: string, options?: ErrorOptions): ConfigError {
  const dir = dirname(path);
  const fix = existsSync(join(dir, 'journal.jsonl')) ? `; answer-eval run --resume ${dir} writes it again from the run's journal` : '';
  return new ConfigError(`${path}: cut off: ${why} (it was not written or copied completely, e.g. on a full disk or by a transfer cut short)${fix}`, options);
}

const notReport = (path: string, line: number, what: string): ConfigError => new ConfigError(`${path}:${line}: ${what}: not a report.json written by answer-eval`);

const countBreaks = (bytes: Buffer, from = 0, to = bytes.length): number => {
  let n = 0;
  for (let at = bytes.indexOf(10, from); at >= 0 && at < to; at = bytes.indexOf(10, at + 1)) n++;
  return n;
};

const isBlank = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The head's text (without the results key), where the results begin, and the line they begin on. */
export interface Head {
  text: string;
  resultsAt: number;
  resultsLine: number;
}

/**
 * Finds the head of a report.json: its bytes up to `,\n  "results": [`. Undefined when the file ends first, or
 * has none in its first `limits.reportHeadBytes` bytes (not our layout: the caller may read it whole). A file that does not begin
 * with `{`, or holds a NUL byte in its head, is no report: refused at once, naming the line.
 */
export async function locateHead(path: string): Promise<Head | undefined> {
  const handle = await open(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  const chunks: Buffer[] = [];
  let size = 0;
  let lines = 1; // the line the next chunk begins on
  let begun = false;
  try {
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    while (size < limits.reportHeadBytes) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
      if (bytesRead === 0) return undefined;
      const bytes = Buffer.from(chunk.subarray(0, bytesRead));
      if (!begun) {
        const first = bytes.findIndex((b) => !isBlank(b));
        if (first >= 0 && bytes[first] !== 0x7b) throw notReport(path, 1 + countBreaks(bytes, 0, first), `not a JSON object (it begins with ${describeByte(bytes[first]!)}, where a report begins with "{")`);
        begun = first >= 0;
      }
      // the key may span the previous chunk and this one
      const tail = chunks.length > 0 ? chunks[chunks.length - 1]!.subarray(-(RESULTS_KEY.length - 1)) : Buffer.alloc(0);
      const across = tail.length > 0 ? Buffer.concat([tail, bytes.subarray(0, RESULTS_KEY.length - 1)]).indexOf(RESULTS_KEY) : -1;
      const within = across >= 0 ? -1 : bytes.indexOf(RESULTS_KEY);
      const end = across >= 0 ? size - tail.length + across : within >= 0 ? size + within : -1;
      // only the head is ours to judge here: what follows it is read line by line
      const nul = bytes.subarray(0, end < 0 ? bytes.length : Math.max(0, end - size)).indexOf(0);
      if (nul >= 0) throw notReport(path, lines + countBreaks(bytes, 0, nul), `a NUL byte at byte ${size + nul}, which no JSON text holds (a damaged or binary file)`);
      chunks.push(bytes);
      size += bytesRead;
      if (end >= 0) {
        const all = Buffer.concat(chunks, size);
        return { text: all.toString('utf8', 0, end), resultsAt: end + RESULTS_KEY.length, resultsLine: 2 + countBreaks(all, 0, end) };
      }
      lines += countBreaks(bytes);
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/** `"x"`, or `byte 0xNN` for one that is not a printable ASCII character. */
const describeByte = (b: number): string => (b > 0x20 && b < 0x7f ? `"${String.fromCharCode(b)}"` : `byte 0x${b.toString(16).toUpperCase().padStart(2, '0')}`);

/** A result found in the file: its text, where it sits, its index and line. */
export interface FoundResult {
  text: string;
  from: number;
  to: number;
  index: number;
  line: number;
}

/**
 * One pass over the results of a report.json from its head, in the layouts answer-eval reads; each result is
 * handed to `keep` as text with where it sits. False when the layout is not one of ours (nothing is then to be
 * trusted of what was kept); a file cut off, a line too long, or anything after the report's end is an error.
 */
export async function eachResultText(path: string, head: Head, keep: (found: FoundResult) => void): Promise<boolean> {
  let index = 0;
  let recordStart = -1; // a result spread over several lines, from its `    {` line
  let recordLine = 0;
  let recordLines: string[] = [];
  let recordBytes = 0;
  const stream = createReadStream(path, { start: head.resultsAt, highWaterMark: 1024 * 1024 });
  try {
    for await (const line of splitLines(stream as AsyncIterable<Buffer>, { start: head.resultsAt, firstLine: head.resultsLine })) {
      if ('tooLong' in line) throw notReport(path, line.number, `results[${index}] ${longLineMessage(line)}`);
      const text = line.bytes.toString('utf8');
      // a last line without its newline, before the results close: the file was cut there, maybe inside a result
      if (line.last && !text.trim().startsWith(']')) throw cutOff(path, `the file ends before its results close, after ${index} results`);
      const bare = text.replace(/\r$/, '');
      if (recordStart >= 0) {
        recordLines.push(text);
        recordBytes += line.bytes.length + 1;
        if (recordBytes > limits.lineBytes) throw notReport(path, recordLine, `results[${index}] is longer than ${sizeText(limits.lineBytes)}`);
        if (bare === '    }' || bare === '    },') {
          keep({ text: recordLines.join('\n').trim().replace(/,$/, ''), from: recordStart, to: line.at + 5, index: index++, line: recordLine });
          recordStart = -1;
          recordLines = [];
        }
        continue;
      }
      const trimmed = bare.trim();
      if (trimmed === '') continue;
      if (trimmed.startsWith(']')) {
        if (trimmed !== ']' && trimmed !== ']}') return false; // something after the results (`],` and more keys): not our layout
        return afterResults(path, line.at + line.bytes.length + (line.last ? 0 : 1), line.number + 1, trimmed === ']');
      }
      if (bare === '    {') {
        recordStart = line.at + 4;
        recordLine = line.number;
        recordLines = ['{'];
        recordBytes = 0;
      } else if (bare.startsWith('    {')) {
        const result = bare.endsWith(',') ? bare.slice(4, -1) : bare.slice(4);
        keep({ text: result, from: line.at + 4, to: line.at + 4 + Buffer.byteLength(result), index: index++, line: line.number });
      } else return false;
    }
  } finally {
    stream.destroy();
  }
  // every line was one of ours: no other layout ends here, nor does any JSON
  throw cutOff(path, `the file ends before its results close, after ${index} results`);
}

/**
 * After the line `  ]` (byte `from`, line `line`): the report's closing `}` (unless `]}` closed it already) and
 * blanks, nothing else. True when it ends so; false for `,` (more keys: not our layout). Bytes after the end (NUL
 * padding, another file joined) are an error naming where, read no further than the first of them.
 */
async function afterResults(path: string, from: number, line: number, braceDue: boolean): Promise<boolean> {
  const stream = createReadStream(path, { start: from, highWaterMark: 64 * 1024 });
  let at = from;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let i = 0; i < chunk.length; i++, at++) {
        const b = chunk[i]!;
        if (isBlank(b)) {
          if (b === 0x0a) line++;
          continue;
        }
        if (braceDue && b === 0x7d) braceDue = false;
        else if (braceDue && b === 0x2c) return false;
        else throw trailing(path, line, at, b, braceDue);
      }
    }
  } finally {
    stream.destroy();
  }
  if (braceDue) throw cutOff(path, 'the file ends before its closing "}"');
  return true;
}

function trailing(path: string, line: number, at: number, b: number, braceDue: boolean): ConfigError {
  if (braceDue) return notReport(path, line, `${describeByte(b)} where the report's closing "}" belongs`);
  const what = b === 0 ? 'NUL bytes (padding, e.g. left by a crash)' : `more data (${describeByte(b)}...: another file joined to it, or garbage)`;
  return new ConfigError(`${path}:${line}: ${what} after the end of the report, from byte ${at}: the report itself is whole; truncate -s ${at} ${path} keeps only the report`);
}
