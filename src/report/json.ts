import type { ScoredData } from '../model/source.js';

const indent = (json: string, by: string): string => by + json.replaceAll('\n', `\n${by}`);

/**
 * report.json: keys in a fixed order, two-space indent, so two runs diff cleanly. The bytes are
 * `JSON.stringify(report, null, 2) + '\n'`, written a result at a time: the head, then each result re-indented.
 */
export function* renderJson({ head, results }: ScoredData): Generator<string> {
  const open = JSON.stringify(head, null, 2);
  // JSON.stringify never leaves a raw newline inside a string, so the last "\n}" closes the head object
  yield `${open.slice(0, open.lastIndexOf('\n}'))},\n  "results": [`;
  let first = true;
  for (const r of results) {
    yield `${first ? '\n' : ',\n'}${indent(JSON.stringify(r, null, 2), '    ')}`;
    first = false;
  }
  yield first ? ']\n}\n' : '\n  ]\n}\n';
}
