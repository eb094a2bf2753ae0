import { GateFailedError } from '../errors.js';
import { failures } from '../gate/gates.js';
import type { Verdict } from '../model/verdict.js';
import { gateLine } from '../report/verdict.js';
import type { JobContext } from './job.js';
import { workflowCommand } from './output.js';
import { oneLine } from '../util/terminal.js';

/** The `::error` annotation GitHub Actions shows on the job for one failed gate: the command, its title, its text. */
const annotation = (gate: string, message: string) => ['error', { title: 'answer-eval gate' }, `${gate}: ${message}`] as const;

/** The annotation of a failed gate as printed (see annotation). */
export const gateAnnotation = (gate: string, message: string): string => workflowCommand(...annotation(gate, message));

/**
 * Prints every gate judged (on GitHub Actions, `GITHUB_ACTIONS=true`, also an `::error` annotation per failed
 * gate), then throws GateFailedError (exit 1) naming each one that failed and by how much, or `unmeasured` (exit 3)
 * when what was judged measured nothing, gate or not. The reports already carry the verdict: this is called after
 * they are written.
 */
export function enforceGates({ io, out }: JobContext, verdict: Verdict | undefined, o: { unmeasured?: Error | undefined } = {}): void {
  for (const r of verdict?.results ?? []) out.print(`  gate ${oneLine(gateLine(r))}\n`);
  if (io.env['GITHUB_ACTIONS'] === 'true') for (const r of verdict?.results ?? []) if (!r.passed) out.annotate(...annotation(r.gate, r.message));
  if (o.unmeasured) throw o.unmeasured;
  const failed = failures(verdict?.results ?? []);
  if (failed.length > 0) throw new GateFailedError(failed);
}
