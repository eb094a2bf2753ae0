import { describe, expect, it } from 'vitest';
import { HeadScanner, type HeadEnd } from '../../src/view/head-scan.js';

// Where a report's head ends, in any layout, fed in chunks of any size.

function scan(text: string, chunk = text.length): HeadEnd | undefined {
  const bytes = Buffer.from(text);
  const scanner = new HeadScanner();
  for (let at = 0; at < bytes.length; at += chunk) {
    const end = scanner.feed(bytes.subarray(at, at + chunk));
    if (end) return end;
  }
  return undefined;
}

describe('HeadScanner', () => {
  it('finds the comma before the top-level results key, minified or indented, in chunks of 1 byte or all at once', () => {
    const minified = '{"schemaVersion":"1.5","gates":{"results":[1]},"results":[{"id":"a"}]}';
    for (const chunk of [1, 3, 1000]) expect(scan(minified, chunk)).toEqual({ kind: 'before-results', end: 46 });
    expect(minified.slice(0, 46)).toBe('{"schemaVersion":"1.5","gates":{"results":[1]}');
    const indented = '{\n  "run": {"a": "x\\"results\\":"},\n  "results": [\n    {}\n  ]\n}';
    expect(scan(indented, 2)).toEqual({ kind: 'before-results', end: 33 });
  });

  it('a "results" inside a string, in a longer key or nested is not the key; an object without it closes', () => {
    const text = `{"a":"\\",\\"results\\":[","resultsX":1,"b":{"results":2}}`;
    expect(text.length).toBe(55);
    expect(scan(text, 4)).toEqual({ kind: 'closed', end: 55 });
  });

  it('results first, or no object at all: not a head-first layout; a file cut short: nothing yet', () => {
    expect(scan('{"results":[],"run":{}}')).toEqual({ kind: 'not-head-first', why: 'its results come first, before the run' });
    expect(scan('  [1,2]')).toEqual({ kind: 'not-head-first', why: 'it is not a JSON object' });
    expect(scan('{"schemaVersion": "1')).toBeUndefined();
  });
});
