import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { ABOVE_0, isNumberArgMessage, numberArg, SCORE, SHARE, WHOLE_AT_LEAST_1 } from '../../src/util/numbers.js';

describe('numberArg', () => {
  it('takes numbers and numeric text', () => {
    expect(numberArg('--concurrency', WHOLE_AT_LEAST_1)(8)).toBe(8);
    expect(numberArg('--concurrency', WHOLE_AT_LEAST_1)(' 16 ')).toBe(16);
    expect(numberArg('--rps', ABOVE_0)('2.5')).toBe(2.5);
    expect(numberArg('--floor', SCORE)(0)).toBe(0);
  });

  it('names the flag, the rule and what was typed: text quoted, numbers as they are', () => {
    expect(() => numberArg('--concurrency', WHOLE_AT_LEAST_1)('abc')).toThrow(new ConfigError('--concurrency must be a whole number >= 1, got "abc"'));
    expect(() => numberArg('--concurrency', WHOLE_AT_LEAST_1)(1.5)).toThrow('--concurrency must be a whole number >= 1, got 1.5');
    expect(() => numberArg('--concurrency', WHOLE_AT_LEAST_1)('')).toThrow('--concurrency must be a whole number >= 1, got ""');
    expect(() => numberArg('--min-accuracy', SHARE)([0.5, 0.6])).toThrow('--min-accuracy must be a share between 0 and 1, got "0.5 0.6"');
    expect(() => numberArg('--floor', SCORE)(101)).toThrow('--floor must be a score between 0 and 100, got 101');
    expect(isNumberArgMessage('--floor must be a score between 0 and 100, got 101')).toBe(true);
    expect(isNumberArgMessage('Unknown argument: x')).toBe(false);
  });
});
