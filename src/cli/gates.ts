import { GateFailedError } from '../errors.js';
import { failures, type GateResult } from '../gate/gates.js';

/** Prints every gate judged, then throws GateFailedError (exit 1) naming each one that failed and by how much. */
export function enforceGates(results: readonly GateResult[], write: (text: string) => void): void {
  if (results.length === 0) return;
  for (const r of results) write(`  gate ${r.passed ? 'passed' : 'FAILED'}: ${r.message}\n`);
  const failed = failures(results);
  if (failed.length > 0) throw new GateFailedError(failed);
}
