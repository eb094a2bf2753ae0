import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/util/text.js';

describe('truncate', () => {
  it('keeps short text whole, on one line', () => {
    expect(truncate('  how do\n I   pay? ', 60)).toBe('how do I pay?');
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('cuts long text to max characters, the last an ellipsis, never half an emoji', () => {
    expect(truncate('abcd', 3)).toBe('ab…');
    const text = `${'a'.repeat(58)}🚀🚀🚀`;
    expect(truncate(text, 60)).toBe(`${'a'.repeat(58)}🚀…`);
    expect(truncate('🚀🚀🚀', 3)).toBe('🚀🚀🚀'); // three characters, six UTF-16 units
    expect(truncate('🚀🚀🚀🚀', 3)).toBe('🚀🚀…');
    expect(truncate(`${'a'.repeat(59)}🚀b`, 60)).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
