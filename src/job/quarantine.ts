import { readFile } from 'node:fs/promises';
import { ConfigError, formatProblem, InputError } from '../errors.js';
import type { Comparison } from '../compare/schema.js';
import { parseQuarantine, type Quarantine } from '../model/quarantine.js';
import { readFailureMessage } from '../util/read-failure.js';

const EXPECTED = 'a text file of question ids, one a line, such as the quarantine.txt trend or run --repeat writes';

/**
 * Reads `--quarantine FILE` (see src/model/quarantine.ts): a file that cannot be read, or a line that cannot be an id,
 * is exit 2 naming it; so is an empty one (the parser refuses the flag given twice).
 */
export async function readQuarantine(path: string): Promise<Quarantine> {
  if (path.trim() === '') throw new ConfigError(`--quarantine needs a file (expected ${EXPECTED})`);
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    const why = readFailureMessage(error, EXPECTED) ?? String(error);
    throw new ConfigError(`--quarantine ${path}: ${why}${why.includes('(expected') ? '' : ` (expected ${EXPECTED})`}`, { cause: error });
  });
  const { quarantine, problems } = parseQuarantine(text, path);
  if (problems.length > 0) throw new InputError(problems.map((p) => ({ file: path, ...p })));
  return quarantine;
}

/** The warning for ids of the quarantine that are in neither run (removed or renamed questions): empty when none. */
export function unknownQuarantined(c: Comparison, q: Quarantine | undefined): string[] {
  const ref = c.quarantine;
  if (q === undefined || ref === undefined || ref.unknownCount === 0) return [];
  const shown = ref.unknown.slice(0, 10).map((id) => formatProblem({ file: q.file, line: q.ids.get(id) ?? 0, message: `"${id}" is in neither run` }));
  const more = ref.unknownCount > shown.length ? [`... and ${ref.unknownCount - shown.length} more`] : [];
  return [
    `answer-eval: warning: --quarantine ${q.file}: ${ref.unknownCount} listed ${ref.unknownCount === 1 ? 'id is' : 'ids are'} in neither run (no question, turn or conversation has it: removed or renamed? drop ${ref.unknownCount === 1 ? 'it' : 'them'} from the quarantine):`,
    ...[...shown, ...more].map((line) => `  ${line}`),
  ];
}
