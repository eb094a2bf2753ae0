import type { ScoredData } from '../model/source.js';

/**
 * report.json: the head with a two-space indent, then the results, one per line (compact JSON), last: keys in a
 * fixed order, so two runs diff cleanly, question by question; any JSON reader (jq) reads it, and answer-eval reads
 * its results one at a time (src/report/read.ts openReport). Written a result at a time.
 */
export function* renderJson({ head, results }: ScoredData): Generator<string> {
  const open = JSON.stringify(head, null, 2);
  // JSON.stringify never leaves a raw newline inside a string, so the last "\n}" closes the head object
  yield `${open.slice(0, open.lastIndexOf('\n}'))},\n  "results": [`;
  let first = true;
  for (const r of results) {
    yield `${first ? '\n' : ',\n'}    ${JSON.stringify(r)}`;
    first = false;
  }
  yield first ? ']\n}\n' : '\n  ]\n}\n';
}
