import { describe, expect, it } from 'vitest';
import { workflowCommand } from '../../src/job/output.js';
import { commandData, commandProperty, oneLine, quoted, safeLine, safeLines } from '../../src/util/terminal.js';

const ZWJ = '\u200d';

describe('text from data on a terminal and in a CI log', () => {
  it('shows control, format and separator characters as escapes; tabs stay', () => {
    expect(oneLine('a\nb\r\x1b[31m\x9b1m\x7f\x00\u202e\u2066\u200b\ufeff\u2028\u{e0041}\tz')).toBe('a\\nb\\r\\x1b[31m\\x9b1m\\x7f\\x00\\u202e\\u2066\\u200b\\ufeff\\u2028\\u{e0041}\tz');
    expect(quoted('say "hi"\n')).toBe('"say "hi"\\n"');
    expect(oneLine('café ✓ 😀')).toBe('café ✓ 😀');
  });

  it('breaks a workflow command at the start of a line, and every ##', () => {
    expect(safeLine('::error::x')).toBe(`:${ZWJ}:error::x`);
    expect(safeLine('  \t::add-mask::x')).toBe(`  \t:${ZWJ}:add-mask::x`);
    expect(safeLine(':::warning::x')).toBe(`:${ZWJ}::warning::x`);
    expect(safeLine('a ##[error]b ###vso[x]')).toBe(`a #${ZWJ}#[error]b #${ZWJ}#${ZWJ}#vso[x]`);
    // `::` inside a line is no command: an IPv6 loopback URL stays as typed
    expect(safeLine('on http://[::1]:8080 ::x')).toBe('on http://[::1]:8080 ::x');
    expect(safeLine('\r::error::x')).toBe('\\r::error::x');
  });

  it('keeps the line breaks of several lines, each line made safe', () => {
    expect(safeLines('one\n::error::two\n\x1b[2J\n')).toBe(`one\n:${ZWJ}:error::two\n\\x1b[2J\n`);
    const plain = 'Run: 3 of 3 questions\n  top-1 accuracy 100%\n';
    expect(safeLines(plain)).toBe(plain);
  });

  it("escapes answer-eval's own workflow commands as GitHub reads them", () => {
    expect(commandData('50% a\r\nb\x1b ##[x')).toBe(`50%25 a%0D%0Ab\\x1b #${ZWJ}#[x`);
    expect(commandProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    expect(workflowCommand('error', { title: 'gate: a,b' }, 'x\n::add-mask::y')).toBe('::error title=gate%3A a%2Cb::x%0A::add-mask::y');
  });
});
