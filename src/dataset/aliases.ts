import { readBounded, UnreadableFile } from '../util/bounded-read.js';
import { InputError, type InputProblem } from '../errors.js';
import { printable } from '../util/json-lines.js';
import { readFailureMessage } from '../util/read-failure.js';
import type { Aliases } from '../model/expectations.js';

/** The most problems an alias file gives before reading stops (a file that is no alias file). */
const MAX_PROBLEMS = 1000;

/**
 * Parses an alias file: CSV lines `old,new` (sequence numbers), an optional `old,new` header,
 * blank lines and `#` comments skipped. Chains (1 -> 2, 2 -> 3) resolve to the last number;
 * a cycle or an old number given twice is a problem.
 */
export function parseAliases(text: string, file: string): { aliases: Map<number, number>; problems: InputProblem[] } {
  const direct = new Map<number, { to: number; line: number }>();
  const problems: InputProblem[] = [];
  const body = text.replace(/^\uFEFF/, '');
  // line by line without splitting the whole text (a file of millions of line breaks would be millions of strings)
  const breaks = /\r\n|\r|\n/g;
  for (let start = 0, line = 1; start <= body.length; line++) {
    if (problems.length >= MAX_PROBLEMS) {
      problems.push({ file, line, message: `reading stopped after ${MAX_PROBLEMS} problems: is this the alias file you meant?` });
      break;
    }
    breaks.lastIndex = start;
    const found = breaks.exec(body);
    const row = body.slice(start, found ? found.index : body.length).trim();
    start = found ? found.index + found[0].length : body.length + 1;
    if (row === '' || row.startsWith('#') || (line === 1 && /^old\s*,\s*new$/i.test(row))) continue;
    const m = /^(-?\d+)\s*,\s*(-?\d+)$/.exec(row);
    if (!m) {
      problems.push({ file, line, message: `"${printable(row, 60)}" is not "old,new" (two whole sequence numbers, e.g. 12,340)` });
      continue;
    }
    const from = Number(m[1]);
    const seen = direct.get(from);
    if (seen) problems.push({ file, line, message: `${from} is already mapped at line ${seen.line}` });
    else direct.set(from, { to: Number(m[2]), line });
  }
  const aliases = new Map<number, number>();
  for (const [from, { line }] of direct) {
    let to = from;
    const path = new Set<number>([from]);
    for (let next = direct.get(to); next; next = direct.get(to)) {
      to = next.to;
      if (path.has(to)) break;
      path.add(to);
    }
    if (direct.has(to) && path.has(to)) problems.push({ file, line, message: `${from} leads back to itself (${[...path, to].join(' -> ')})` });
    else aliases.set(from, to);
  }
  return { aliases, problems };
}

/** The largest alias file read: 64 MiB, millions of pairs. */
const MAX_ALIAS_BYTES = 64 * 1024 * 1024;

/** Reads an alias file (see parseAliases); every problem is reported at once as file:line. */
export async function readAliases(path: string): Promise<Aliases> {
  const bytes = await readBounded(path, { maxBytes: MAX_ALIAS_BYTES, text: true }).catch((error: NodeJS.ErrnoException) => {
    if (error instanceof UnreadableFile) throw new InputError([{ file: path, line: error.line, message: `${error.message} (expected a CSV of old,new sequence numbers)` }], { cause: error });
    throw new InputError([{ file: path, line: 0, message: readFailureMessage(error, 'a CSV of old,new sequence numbers') ?? error.message }], { cause: error });
  });
  const text = bytes.toString('utf8');
  const { aliases, problems } = parseAliases(text, path);
  if (problems.length > 0) throw new InputError(problems);
  return aliases;
}
