import { describe, expect, it } from 'vitest';
import { parseQuarantine, quarantinable, quarantineText } from '../../src/model/quarantine.js';

describe('the quarantine file', () => {
  it('reads one id a line; "#" starts a comment at the start of a line or after a space or tab; blank lines skipped', () => {
    const text = '\uFEFF# header\r\nq041  # flaky: flipped 3 times\n\n  q042\t# tab\nsmart-meter-1#3\nfaq 12\nq041\n   \n# q043 commented out\n';
    const { quarantine, problems } = parseQuarantine(text, 'q.txt');
    expect(problems).toEqual([]);
    expect([...quarantine.ids]).toEqual([
      ['q041', 2],
      ['q042', 4],
      ['smart-meter-1#3', 5],
      ['faq 12', 6],
    ]);
    expect(quarantine.file).toBe('q.txt');
  });

  it('names the line of an id that holds a control or invisible character', () => {
    const { problems } = parseQuarantine('ok\nq\u0000bad\nzero\u200Bwidth # x\n', 'q.txt');
    expect(problems).toEqual([
      { line: 2, message: 'the id holds an invisible or control character (U+0000) at character 2 (expected one question id a line, "# why" after it if you like)' },
      { line: 3, message: 'the id holds an invisible or control character (U+200B) at character 5 (expected one question id a line, "# why" after it if you like)' },
    ]);
  });

  it('is written so it reads back: each id with why; an id the format cannot hold is said in a comment, not dropped', () => {
    const entries = [
      { id: 'q1', why: 'flaky:\nflipped 3 times' },
      { id: 'conv#2', why: 'inconsistent' },
      { id: '#hash', why: 'starts with #' },
      { id: 'a #b', why: 'holds " #"' },
    ];
    const text = [...quarantineText(['made by a test'], entries)].join('');
    expect(text).toBe(
      '# made by a test\nq1  # flaky: flipped 3 times\nconv#2  # inconsistent\n' +
        '# not listed, its id cannot be written in this file (it starts with "#" or holds " #"): "#hash" (starts with #)\n' +
        '# not listed, its id cannot be written in this file (it starts with "#" or holds " #"): "a #b" (holds " #")\n',
    );
    expect([...parseQuarantine(text, 'q.txt').quarantine.ids.keys()]).toEqual(['q1', 'conv#2']);
    expect([quarantinable('q1'), quarantinable('conv#2'), quarantinable('#x'), quarantinable('a #b'), quarantinable(' a')]).toEqual([true, true, false, false, false]);
    expect([...quarantineText(['h'], [])].join('')).toBe('# h\n# (none)\n');
  });
});
