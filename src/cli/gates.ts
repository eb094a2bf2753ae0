import { GateFailedError } from '../errors.js';
import { failures } from '../gate/gates.js';
import type { Verdict } from '../model/verdict.js';

/** GitHub Actions workflow-command data: `%`, CR and LF escaped so a message stays one annotation. */
const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** The `::error` annotation GitHub Actions shows on the job for one failed gate. */
export const gateAnnotation = (gate: string, message: string): string => `::error title=answer-eval gate::${escapeData(`${gate}: ${message}`)}`;

/**
 * Prints every gate judged (on GitHub Actions, `GITHUB_ACTIONS=true`, also an `::error` annotation per failed
 * gate), then throws GateFailedError (exit 1) naming each one that failed and by how much. The reports already
 * carry the verdict: this is called after they are written.
 */
export function enforceGates(verdict: Verdict | undefined, write: (text: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  if (verdict === undefined) return;
  for (const r of verdict.results) write(`  gate ${r.passed ? 'passed' : 'FAILED'}: ${r.message}\n`);
  if (env['GITHUB_ACTIONS'] === 'true') for (const r of verdict.results) if (!r.passed) write(`${gateAnnotation(r.gate, r.message)}\n`);
  const failed = failures(verdict.results);
  if (failed.length > 0) throw new GateFailedError(failed);
}
