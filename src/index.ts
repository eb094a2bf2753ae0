/**
 * answer-eval's programmatic API: the CLI's commands as functions, with the same options (their flags, camel-cased),
 * the same files written and the same exit code (docs/api.md).
 *
 * ```ts
 * import { run } from 'answer-eval';
 * const { exitCode, verdict } = await run({ dataset: 'faq.csv', baseUrl, agent: 'support', baseline: 'main/report.json', failOn: 'regression', out: 'reports/pr' });
 * ```
 */

// the commands, each a job: options and an io in, the verdict and exit code out
export { main } from './cli/cli.js';
export { run, type RunJobOptions, type RunJobResult } from './job/run.js';
export { compare, type CompareOptions, type CompareJobResult } from './job/compare.js';
export { trend, type TrendOptions, type TrendJobResult } from './job/trend.js';
export { rescore, type RescoreOptions } from './job/rescore.js';
export { report, type ReportOptions } from './job/report.js';
export { merge, type MergeOptions } from './job/merge.js';
export { exportTrec, type ExportOptions } from './job/export.js';
export { validate, type ValidateOptions } from './job/validate.js';
export { serve, type ServeOptions } from './job/serve.js';
export { view, type ViewOptions } from './job/view.js';
export { label, type LabelOptions } from './job/label.js';
export { sample, type SampleJobResult } from './job/sample.js';
export { sampleLog, type SampleOptions } from './sample/sample.js';
export type { SampleSummary } from './sample/summary.js';
export type { JobResult } from './job/job.js';
export type { JobIo, TextSink, Interrupts } from './job/io.js';

// what the jobs write, to read back
export { readReport, readReportHead } from './report/read.js';
export { SCHEMA_VERSION, type Report, type QuestionResult, type ReportAnswer, type Summary, type RunInfo } from './model/report.js';
export type { Metrics } from './model/metrics.js';
export type { Coverage, CoverageEntry, CoverageRef } from './model/coverage.js';
export type { Verdict, GateResult } from './model/verdict.js';
export type { Outcome } from './model/outcome.js';
export { COMPARE_SCHEMA_VERSION, type Comparison } from './compare/schema.js';
export { TREND_SCHEMA_VERSION, type Trend } from './trend/schema.js';

// the embedded reference engine, for a program's own tests of a knowledge base
export { startEngine, type EngineOptions, type RunningEngine } from './engine/engine.js';

export { AnswerEvalError, ConfigError, InputError, GateFailedError, NothingMeasuredError, GateNotJudgedError, RunAbortedError, InterruptedError, type InputProblem } from './errors.js';
