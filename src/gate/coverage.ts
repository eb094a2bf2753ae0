import type { Coverage } from '../model/coverage.js';
import type { GateResult } from './gates.js';
import { atLeast, firstIds } from './threshold.js';

/** Why a report has no coverage, and how to give it one: said by the gate that cannot be judged without it. */
export const NO_COVERAGE = 'it was made without a knowledge base: give the one beside the service with --kb FILE (answer-eval report --from DIR --kb FILE adds it to a saved run)';

/** An entry as a gate names it: `30 submit_reading`, or `30` without a label. */
const named = (e: { sequence: number; label: string | null }): string => (e.label === null ? String(e.sequence) : `${e.sequence} ${e.label}`);

/**
 * `--min-coverage X`: the share of the knowledge base's entries that at least one answerable question names; a
 * failure names the first untested entries. A report without coverage cannot meet it (`NO_COVERAGE`): `run` refuses
 * the flag at the start when no knowledge base is known, `compare` exits 3 (see coverageUnjudged). Pure.
 */
export function coverageGate(coverage: Coverage | undefined, min: number): GateResult {
  const measure = { name: 'knowledge-base coverage', metric: 'coverage', flag: '--min-coverage', value: coverage?.share ?? null, ...(coverage ? { of: `${coverage.tested}/${coverage.entries} entries tested` } : {}) };
  const result = atLeast(measure, min, coverage ? 'the knowledge base has no entry' : `no coverage: ${NO_COVERAGE}`);
  if (result.passed || !coverage || coverage.untested.length === 0) return result;
  return { ...result, message: `${result.message}; untested: ${firstIds(coverage.untested.map(named))}` };
}

/** The exit-3 reason of `--min-coverage` on a report without coverage (`which`: `HEAD (file)`); undefined when it can be judged. */
export const coverageUnjudged = (coverage: Coverage | undefined, min: number | undefined, which: string): string | undefined =>
  min === undefined || coverage !== undefined ? undefined : `--min-coverage cannot be judged: ${which} has no knowledge-base coverage: ${NO_COVERAGE}`;
