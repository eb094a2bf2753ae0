/**
 * The bounds that hold hostile input (a file of gigabytes without a line break, NUL padding, a device) to linear
 * time and bounded memory. Every reader reads them here when it runs, never a copy taken at load.
 */
export interface Limits {
  /**
   * The longest line read as JSON: a report.json's result, a journal line. A result line holds a question (at most
   * `rowBytes`) and the answers of one reply (at most --max-response-bytes, itself at most 32 MiB).
   * @default 64 MiB
   */
  lineBytes: number;
  /** The longest line (row) of a question set or a log: far beyond any question, and small enough for a result line to hold. @default 16 MiB */
  rowBytes: number;
  /** How far the head of a report.json is searched for its results; a file without them so early is not in answer-eval's layout. @default 64 MiB */
  reportHeadBytes: number;
  /** The largest report.json read whole (one not in answer-eval's layout); a larger one must keep that layout. @default 256 MiB */
  wholeReportBytes: number;
  /**
   * The most memory a run's question set may take kept from its check (estimated: see KeptItems, src/run/check.ts). A set
   * that fits is asked from memory; a larger one is read again, a page at a time, while it is asked. @default 48 MiB
   */
  keptItemsBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({ lineBytes: 64 * MiB, rowBytes: 16 * MiB, reportHeadBytes: 64 * MiB, wholeReportBytes: 256 * MiB, keptItemsBytes: 48 * MiB });

/** The bounds in force: DEFAULT_LIMITS, always, but in a test that lowered them (test/helpers/limits.ts). */
export const limits: Readonly<Limits> = { ...DEFAULT_LIMITS };
