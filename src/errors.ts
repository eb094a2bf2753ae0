import { oneLine } from './util/terminal.js';

/**
 * Errors that speak to the user. Each carries a stable `code` and the exit code the CLI maps it to:
 * 1 a gate failed, 2 usage / configuration / dataset error, 3 the run could not complete.
 * Only `src/cli/main.ts` turns them into a process exit code. One made from another error keeps it as its `cause`
 * (ES2022), for whoever debugs: the message speaks to the user, and the CLI prints the message only.
 */
export type ExitCode = 0 | 1 | 2 | 3;

export class AnswerEvalError extends Error {
  override name = 'AnswerEvalError';
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: ExitCode,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Bad flags or settings: nothing was sent. */
export class ConfigError extends AnswerEvalError {
  override name = 'ConfigError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'CONFIG', 2, options);
  }
}

/** One problem in an input file, at `file:line`. */
export interface InputProblem {
  file: string;
  line: number;
  message: string;
  severity?: 'error' | 'warning';
}

/**
 * `file:line: message` (`file: message` for the file as a whole, line 0; with a severity: `file:line: warning: message`), on one line: a message quotes values from
 * the data (a header, a cell), whose line breaks and control characters are shown as escapes (src/util/terminal.ts).
 */
export const formatProblem = (p: InputProblem, severity?: string): string =>
  `${oneLine(p.file)}${p.line > 0 ? `:${p.line}` : ''}: ${severity === undefined ? '' : `${severity}: `}${oneLine(p.message)}`;

/** A dataset or knowledge base with one or more bad rows; lists every one of them. */
export class InputError extends AnswerEvalError {
  override name = 'InputError';
  constructor(
    readonly problems: InputProblem[],
    options?: ErrorOptions,
  ) {
    const shown = problems.slice(0, 50).map((p) => formatProblem(p));
    // the last is shown too: a read that stopped at too many problems says so there
    if (problems.length > 50) shown.push(`... and ${problems.length - 50} more, the last: ${formatProblem(problems.at(-1)!)}`);
    super(shown.join('\n'), 'INPUT', 2, options);
  }
}

/** The service answered 404: the agent id or code is wrong. The run stops at once. */
export class NotAuthorizedError extends AnswerEvalError {
  override name = 'NotAuthorizedError';
  constructor(url: string, agent: string) {
    super(
      `404 from ${url}: agent "${agent}" is not authorized - check --agent and ANSWER_AGENT_CODE`,
      'NOT_AUTHORIZED',
      3,
    );
  }
}

/**
 * The service answered 404 in a way that says the path is wrong rather than the agent's code: a web server's or a
 * router's "not found" page, or a URL whose path holds the API's twice. The run stops at once.
 */
export class WrongPathError extends AnswerEvalError {
  override name = 'WrongPathError';
  constructor(url: string, evidence: string) {
    super(
      `404 from ${url}, which looks like a wrong path rather than a wrong agent code (${evidence}): check --base-url; ` +
        'requests go to {base-url}/api/v1/answer (give the service\'s root, e.g. https://host, or its https://host/api/v1 form). ' +
        'If the path is right, check --agent and ANSWER_AGENT_CODE',
      'WRONG_PATH',
      3,
    );
  }
}

/** The run stopped before every question was asked (interrupted, circuit breaker, unreachable). */
export class RunAbortedError extends AnswerEvalError {
  override name = 'RunAbortedError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'ABORTED', 3, options);
  }
}

/** SIGINT or SIGTERM stopped the run; the message says how to continue it. */
export class InterruptedError extends RunAbortedError {
  override name = 'InterruptedError';
  constructor(
    readonly signal: string,
    resumeHint: string,
  ) {
    super(`interrupted by ${signal}; ${resumeHint}`);
  }
}

/** One or more quality gates failed; every report was still written. */
export class GateFailedError extends AnswerEvalError {
  override name = 'GateFailedError';
  constructor(readonly failures: string[]) {
    super(`gate failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`, 'GATE_FAILED', 1);
  }
}

/**
 * The dataset changed while a run read it: exit 2 when that is seen before anything was sent, 3 once
 * questions were sent (the run stops, what was asked is journaled and a partial report is written).
 */
export class DatasetChangedError extends AnswerEvalError {
  override name = 'DatasetChangedError';
  constructor(message: string, exitCode: 2 | 3, options?: ErrorOptions) {
    super(message, 'DATASET_CHANGED', exitCode, options);
  }
}

/** Some reports could not be written (a full disk, no permission); the others were. */
export class ReportWriteError extends AnswerEvalError {
  override name = 'ReportWriteError';
  constructor(
    message: string,
    readonly written: string[],
    readonly failed: { path: string; cause: Error }[],
  ) {
    // the cause: the one failure's error, or all of them
    super(message, 'REPORT_WRITE', 3, failed.length < 2 ? failed[0] && { cause: failed[0].cause } : { cause: new AggregateError(failed.map((f) => f.cause)) });
  }
}

/** A run that completed but measured nothing: every question ended in error, or none was asked. */
export class NothingMeasuredError extends AnswerEvalError {
  override name = 'NothingMeasuredError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'NOTHING_MEASURED', 3, options);
  }
}

/**
 * A gate that cannot be judged on what was measured or could be read: neither a pass nor a regression (exit 3). trend:
 * a run that may be newer than the latest one read cannot be read; compare and run --baseline: HEAD did not measure
 * questions BASE did (a shard, a partial run). The reports are written and say so.
 */
export class GateNotJudgedError extends AnswerEvalError {
  override name = 'GateNotJudgedError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, 'GATE_NOT_JUDGED', 3, options);
  }
}
