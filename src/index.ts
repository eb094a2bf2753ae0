/**
 * answer-eval's programmatic API: the same run as the CLI, for a test suite or a script.
 *
 * ```ts
 * import { runEvaluation, writeReports, fromReport } from 'answer-eval';
 * const { report } = await runEvaluation({ dataset: 'faq.csv', baseUrl, agent: 'my-agent', agentCode: process.env.ANSWER_AGENT_CODE! });
 * expect(report.summary.top1Accuracy).toBeGreaterThan(0.8);
 * ```
 */
export { runEvaluation, type RunOutcome } from './run/run.js';
export type { RunOptions } from './run/options.js';
export { readDataset, type Dataset } from './dataset/read.js';
export { openDataset, type DatasetSource, type OpenOptions } from './dataset/source.js';
export { isConversation, type Question, type Expect, type Conversation, type DatasetItem } from './model/question.js';
export { writeReports, parseFormats } from './report/write.js';
export { REPORT_FORMATS, renderString, type ReportFormat } from './report/formats.js';
export { arraySource, fromReport, toReport, type ReportData, type ReportHead, type ResultSource, type ScoredData } from './model/source.js';
export { ReportSchema, SCHEMA_VERSION, type Report, type QuestionResult, type ReportAnswer, type Summary, type RunInfo, type ConversationTurn, type ConversationVerdict } from './model/report.js';
export { OUTCOMES, OUTCOME_CLASSES, type Outcome, type OutcomeClass } from './model/outcome.js';
export { summarize } from './score/summary.js';
export { top1 } from './score/result.js';
export * from './errors.js';
export { computeMetrics, scoreResults, withMetrics } from './score/metrics/index.js';
export { compileMatcher, type Matcher } from './score/match.js';
export { EXPECTATION_FIELDS, MATCHER_PREFIXES, type Aliases, type Expectations } from './model/expectations.js';
export { TURN_CHECKS, type TurnCheckKey, type TurnCheckValues } from './model/turn-checks.js';
export { conversationVerdict } from './score/conversation.js';
export { MetricsSchema, type Metrics, type ConversationMetrics } from './model/metrics.js';
export { CoverageSchema, type Coverage, type CoverageEntry, type CoverageRef } from './model/coverage.js';
export { toTrec, type TrecFiles } from './export/trec.js';
export { reportJsonSchema } from './report/json-schema.js';
export { compareData, compareReports, COMPARE_DEFAULTS, type CompareOptions } from './compare/compare.js';
export { openPair } from './compare/load.js';
export { ChangeFile, ChangeList, withChangeFile, type ChangeSink, type ChangeSource } from './compare/changes.js';
export { ChangeLineSchema, CHANGES_FILE, ComparisonSchema, COMPARE_SCHEMA_VERSION, type ChangeLine, type Comparison } from './compare/schema.js';
export { compareJsonSchema, changeLineJsonSchema } from './compare/json-schema.js';
export { readReport, readReportHead } from './report/read.js';
export { listedChanges, writeComparison } from './compare/write.js';
export { COMPARE_FORMATS, type CompareFormat } from './compare/render/index.js';
export { qualityGates, regressionGates, failures, type QualityGates, type RegressionGates, type GateResult, type FailOn } from './gate/gates.js';
export { judge, withVerdict, comparisonWithVerdict, verdictOf } from './gate/verdict.js';
export { parseQuarantine, QUARANTINE_FILE, type Quarantine } from './model/quarantine.js';
export { Standings } from './compare/standings.js';
export { STANDINGS, type Standing, type BaselineStandings } from './model/standing.js';
export { mcnemarMinBroken } from './compare/stats/mcnemar.js';
export { nothingMeasured } from './model/measured.js';
export { GateResultSchema, VerdictSchema, type Verdict } from './model/verdict.js';
export type { EngineIdentity } from './model/report.js';
export { buildTrend, TREND_DEFAULTS, type TrendOptions } from './trend/build.js';
export { findRuns } from './trend/discover.js';
export { writeTrend } from './trend/write.js';
export { TrendSchema, TREND_SCHEMA_VERSION, type Trend } from './trend/schema.js';
export { rescoreReport, type RescoreOptions } from './rescore/rescore.js';
