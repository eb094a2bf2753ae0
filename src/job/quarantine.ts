import { ConfigError, formatProblem, InputError } from '../errors.js';
import type { Comparison } from '../compare/schema.js';
import { parseQuarantine, type Quarantine } from '../model/quarantine.js';
import { readFailureMessage } from '../util/read-failure.js';
import { quote } from '../model/quote.js';
import { readBounded, UnreadableFile } from '../util/bounded-read.js';

const EXPECTED = 'a text file of question ids, one a line, such as the quarantine.txt trend or run --repeat writes';

/** The largest quarantine file read: 64 MiB, a million ids and their notes. */
const MAX_QUARANTINE_BYTES = 64 * 1024 * 1024;

/**
 * Reads `--quarantine FILE` (see src/model/quarantine.ts): a file that cannot be read, or a line that cannot be an id,
 * is exit 2 naming it; so is an empty one (the parser refuses the flag given twice).
 */
export async function readQuarantine(path: string): Promise<Quarantine> {
  if (path.trim() === '') throw new ConfigError(`--quarantine needs a file (expected ${EXPECTED})`);
  // read bounded: /dev/zero or an endless pipe is refused, a FIFO nobody writes to said (as every file read whole)
  const bytes = await readBounded(path, { maxBytes: MAX_QUARANTINE_BYTES, text: true }).catch((error: unknown) => {
    if (error instanceof UnreadableFile) throw new ConfigError(`--quarantine ${path}${error.line > 0 ? `:${error.line}` : ''}: ${error.message} (expected ${EXPECTED})`);
    const why = readFailureMessage(error, EXPECTED) ?? String(error);
    throw new ConfigError(`--quarantine ${path}: ${why}${why.includes('(expected') ? '' : ` (expected ${EXPECTED})`}`, { cause: error });
  });
  const { quarantine, problems } = parseQuarantine(bytes.toString('utf8'), path);
  if (problems.length > 0) throw new InputError(problems.map((p) => ({ file: path, ...p })));
  return quarantine;
}

/** The warning for ids of the quarantine that are in neither run (removed or renamed questions): empty when none. */
export function unknownQuarantined(c: Comparison, q: Quarantine | undefined): string[] {
  const ref = c.quarantine;
  if (q === undefined || ref === undefined || ref.unknownCount === 0) return [];
  const shown = ref.unknown.slice(0, 10).map((id) => formatProblem({ file: q.file, line: q.ids.get(id) ?? 0, message: `${quote(id)} is in neither run` }));
  const more = ref.unknownCount > shown.length ? [`... and ${ref.unknownCount - shown.length} more`] : [];
  return [
    `answer-eval: warning: --quarantine ${q.file}: ${ref.unknownCount} listed ${ref.unknownCount === 1 ? 'id is' : 'ids are'} in neither run (no question, turn or conversation has it: removed or renamed? drop ${ref.unknownCount === 1 ? 'it' : 'them'} from the quarantine):`,
    ...[...shown, ...more].map((line) => `  ${line}`),
  ];
}
