import { describe, expect, it } from 'vitest';
import { compareCommand } from '../../src/cli/commands/compare.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { nearest, optionNamesOf, unknownOptionMessage } from '../../src/cli/suggest.js';
import { editDistance } from '../../src/util/distance.js';

describe('option suggestions', () => {
  it('editDistance counts insertions, deletions, substitutions and transpositions of neighbours', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('concurrancy', 'concurrency')).toBe(1);
    expect(editDistance('qiet', 'quiet')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('lable', 'label')).toBe(1);
    expect(editDistance('expected_lable', 'expected_label')).toBe(1);
    expect(editDistance('ca', 'abc')).toBe(3); // optimal string alignment: a transposed pair is not edited again
  });

  it('nearest: the closest candidate within a third of the letters, the first on ties, none when too far', () => {
    expect(nearest('concurrancy', ['concurrency', 'country'])).toBe('concurrency');
    expect(nearest('out', ['quiet', 'out'])).toBe('out');
    expect(nearest('ab', ['ac', 'ad'])).toBe('ac');
    expect(nearest('zzzzzz', ['quiet', 'concurrency'])).toBeUndefined();
    expect(nearest('formt', ['format', 'force'])).toBe('format');
  });

  it("reads the options a command declares (long names only)", () => {
    const run = optionNamesOf(runCommand);
    expect(run).toEqual(expect.arrayContaining(['concurrency', 'max-consecutive-errors', 'floor', 'min-accuracy', 'help']));
    expect(run).not.toContain('c');
    expect(optionNamesOf(compareCommand)).toEqual(expect.arrayContaining(['min-accuracy', 'force', 'out']));
  });

  it("turns yargs' unknown-argument message into one naming each option as typed, with the nearest known one", () => {
    const options = ['concurrency', 'quiet', 'max-consecutive-errors', 'dataset'];
    expect(unknownOptionMessage('Unknown argument: concurrancy', ['run', '--concurrancy', '3'], options)).toBe('unknown option: --concurrancy (did you mean --concurrency?)');
    expect(
      unknownOptionMessage('Unknown arguments: max-consecutve-errors, maxConsecutveErrors, qiet', ['run', '--max-consecutve-errors=3', '--qiet'], options),
    ).toBe('unknown options: --max-consecutve-errors (did you mean --max-consecutive-errors?), --qiet (did you mean --quiet?)');
    expect(unknownOptionMessage('Unknown argument: x', ['run', '-x'], options)).toBe('unknown option: -x');
    expect(unknownOptionMessage('Unknown argument: stray', ['run', 'stray'], options)).toBe('unexpected argument: "stray"');
    expect(unknownOptionMessage('Unknown argument: faq.csv', ['run', 'faq.csv'], options)).toBe('unexpected argument: "faq.csv" (a question set is given as --dataset faq.csv)');
    expect(unknownOptionMessage('Unknown argument: faq.ndjson', ['run', 'faq.ndjson'], options)).toBe('unexpected argument: "faq.ndjson" (a question set is given as --dataset faq.ndjson)');
    expect(unknownOptionMessage('Unknown arguments: qiet, a.jsonl', ['run', '--qiet', 'a.jsonl'], options)).toBe(
      'unknown option: --qiet (did you mean --quiet?); unexpected argument: "a.jsonl" (a question set is given as --dataset a.jsonl)',
    );
    expect(unknownOptionMessage('Not enough arguments following: c', ['run', '-c'], options)).toBeUndefined();
  });
});
