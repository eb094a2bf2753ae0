import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { safeCell } from '../../src/report/csv.js';
import { renderString } from '../../src/report/formats.js';
import { top1 } from '../../src/score/result.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';

const unsafe = (s: string) => /^[=+\-@\t\r\n＝＋－＠]/.test(s);
const original = (cell: string, source: string) => (unsafe(source) ? `'${source}` : source);

describe('results.csv', () => {
  it('makes formula-looking text cells inert with a leading quote', () => {
    expect(safeCell('=1+2')).toBe("'=1+2");
    expect(safeCell('+33 1 23')).toBe("'+33 1 23");
    expect(safeCell('-x')).toBe("'-x");
    expect(safeCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(safeCell('\tx')).toBe("'\tx");
    expect(safeCell('\rx')).toBe("'\rx");
    // a line break first (a cell that starts on its second line), and the full-width forms
    expect(safeCell('\n=1+2')).toBe("'\n=1+2");
    expect(safeCell('\r\n@SUM(A1)')).toBe("'\r\n@SUM(A1)");
    for (const c of ['＝', '＋', '－', '＠']) expect(safeCell(`${c}1+2`)).toBe(`'${c}1+2`);
    expect(safeCell('a=b')).toBe('a=b');
  });

  it('round-trips every row through csv-parse, hostile cells included', () => {
    const report = makeReport(120);
    const csv = renderString('csv', report);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(report.results.length);
    expect(Object.keys(rows[0]!)).toEqual([
      'id', 'question', 'language', 'tags', 'expect', 'expected', 'outcome', 'reason', 'top1_sequence', 'top1_label', 'top1_score', 'top1_answer', 'top1_flags', 'latency_ms', 'attempts', 'error',
      'post_processed_answer', 'delay', 'top1_category', 'top1_sub_category', 'top1_theme', 'top1_context', 'top1_snippet', 'top1_tags', 'top1_answer_language', 'sent',
    ]);
    report.results.forEach((r, i) => {
      const row = rows[i]!;
      const top = top1(r);
      expect(row['id']).toBe(r.id);
      expect(row['question']).toBe(original(row['question']!, r.question));
      expect(row['outcome']).toBe(r.outcome);
      expect(row['reason']).toBe(r.reason ?? '');
      expect(row['tags']).toBe(r.tags.join('|'));
      expect(row['top1_answer']).toBe(original(row['top1_answer']!, top?.answer ?? ''));
      expect(row['top1_score']).toBe(top ? String(top.answer_score) : '');
      expect(row['latency_ms']).toBe(r.latencyMs === null ? '' : String(r.latencyMs));
      expect(row['error']).toBe(r.error?.message ?? '');
    });
    const texts = rows.flatMap((row) => [row['question'], row['top1_answer']]);
    expect(texts).toContain(`'${HOSTILE.formula}`);
    expect(texts.some((t) => t?.includes(HOSTILE.script))).toBe(true);
    expect(texts.some((t) => t?.includes(HOSTILE.quotes))).toBe(true);
    expect(texts.some((t) => t?.includes(HOSTILE.unicode))).toBe(true);
    for (const row of rows) for (const [k, v] of Object.entries(row)) if (!['top1_score', 'latency_ms', 'attempts', 'top1_sequence', 'delay'].includes(k)) expect(unsafe(v), `${k}: ${v}`).toBe(false);
  });

  it('quotes a cell holding a lone CR, so a reader taking any line break as a row end sees one row a result', () => {
    const report = makeReport(6);
    report.results[0]!.postProcessedAnswer = 'note\r@SUM(1+1)';
    report.results[1]!.question = 'two\rlines\r\n=1+1';
    const csv = renderString('csv', report);
    const rows = parse(csv, { bom: true, columns: true, record_delimiter: ['\r\n', '\n', '\r'] }) as Record<string, string>[];
    expect(rows).toHaveLength(report.results.length);
    expect(rows[0]!['post_processed_answer']).toBe('note\r@SUM(1+1)');
    expect(rows[1]!['question']).toBe('two\rlines\r\n=1+1');
    // outside quotes, no line break but the rows' own
    expect(csv.replace(/"(?:[^"]|"")*"/g, '').split('\n').every((line) => !line.includes('\r'))).toBe(true);
  });

  it('has the post-processed answer, the delay, the top-1\'s optional fields and what was sent, CSV-safe; a text reply has no score', () => {
    const report = makeReport(3);
    const [a, b, c] = report.results;
    const top = { ...a!.answers[a!.top1Index!]!, delay: 5, theme: '=cmd|x', context: 'ctx', snippet: '@snip', sub_category: '-sub', answer_language: 'it', category: 'Billing', tags: ['x', 'y'] };
    report.results = [
      { ...a!, answers: [top], top1Index: 0, postProcessedAnswer: '+already answered', sent: { output: 'xml', forceSubscription: true } },
      { ...b!, answers: [], top1Index: null },
      { ...c!, reply: { output: 'text' } },
    ];
    const rows = parse(renderString('csv', report), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({
      post_processed_answer: "'+already answered", delay: '5', top1_category: 'Billing', top1_sub_category: "'-sub", top1_theme: "'=cmd|x", top1_context: 'ctx',
      top1_snippet: "'@snip", top1_tags: 'x|y', top1_answer_language: 'it', sent: 'force_subscription=1; output=xml',
    });
    expect(rows[1]).toMatchObject({ post_processed_answer: '', delay: '', top1_theme: '', sent: '' });
    expect(rows[2]!['top1_score']).toBe('');
    expect(rows[2]!['top1_sequence']).toBe(String(top1(c!)?.sequence_number ?? ''));
  });
});
