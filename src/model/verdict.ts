import { z } from 'zod';

/** One gate as judged: which flag, what it measured, against what, and whether it passed (with the reason). */
export const GateResultSchema = z.object({
  /** The flag, e.g. `--min-accuracy` or `--fail-on regression`. */
  gate: z.string(),
  /** What was measured, e.g. `top1Accuracy`, `broken`, `mcnemarP`. */
  metric: z.string(),
  /** The flag's value. */
  threshold: z.number(),
  /** The measured value; null when there was nothing to measure. */
  value: z.number().nullable(),
  passed: z.boolean(),
  /** What was measured against what, and by how much it missed: what a person reads. */
  message: z.string(),
});

/** Every gate a command judged, and whether all of them passed. */
export const VerdictSchema = z.object({
  passed: z.boolean(),
  results: z.array(GateResultSchema),
});

export type GateResult = z.infer<typeof GateResultSchema>;
export type Verdict = z.infer<typeof VerdictSchema>;

/** The verdict on some gates; undefined when none was set (then nothing is judged and nothing is shown). */
export const verdictOf = (results: readonly GateResult[]): Verdict | undefined =>
  results.length === 0 ? undefined : { passed: results.every((r) => r.passed), results: [...results] };
