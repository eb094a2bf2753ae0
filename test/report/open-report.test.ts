import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QuestionResultSchema } from '../../src/model/report.js';
import { renderString } from '../../src/report/formats.js';
import { openReport, readReportHead, scanReport } from '../../src/report/read.js';
import { toReport } from '../../src/model/source.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

const dir = tempDir();
const write = (name: string, text: string): string => {
  const path = `${dir}/${name}`;
  writeFileSync(path, text);
  return path;
};

describe('openReport: a report.json read one result at a time', () => {
  const report = JSON.parse(renderString('json', makeReport(120))) as ReturnType<typeof makeReport>;

  it('reads the layout answer-eval writes (one result per line), in as many passes as asked', async () => {
    const text = renderString('json', report);
    expect(text.split('\n').filter((l) => l.startsWith('    {"id":'))).toHaveLength(120);
    const data = await openReport(write('lines.json', text));
    expect(data.results.count).toBe(120);
    expect(toReport(data)).toEqual(report);
    expect([...data.results].map((r) => r.id)).toEqual(report.results.map((r) => r.id)); // a second pass
  });

  it('reads the pretty layout of JSON.stringify(report, null, 2) and jq, and a minified file whole', async () => {
    for (const [name, text] of [['pretty.json', JSON.stringify(report, null, 2)], ['crlf.json', JSON.stringify(report, null, 2).replace(/\n/g, '\r\n')], ['min.json', JSON.stringify(report)]] as const) {
      const data = await openReport(write(name, text));
      expect(toReport(data), name).toEqual(report);
    }
  });

  it('reads a report with no results', async () => {
    const empty = makeReport(0);
    expect(toReport(await openReport(write('empty.json', renderString('json', empty))))).toEqual(JSON.parse(renderString('json', empty)));
  });

  it('names the first bad result and its field, before any pass', async () => {
    const lines = renderString('json', report).split('\n');
    const i = lines.findIndex((l) => l.includes('"id":"q00077"'));
    lines[i] = lines[i]!.replace('"outcome":"', '"outcome":"nonsense-');
    await expect(openReport(write('bad.json', lines.join('\n')))).rejects.toThrow(/bad\.json: results\[76\]\.outcome: .*\(not a valid answer-eval report\)/);
  });

  it('refuses another schema major, and says what is wrong with a file that is not a report', async () => {
    await expect(openReport(write('v9.json', renderString('json', { ...report, schemaVersion: '9.0' })))).rejects.toThrow(/schemaVersion 9\.0 cannot be read/);
    await expect(openReport(write('not.json', '{nope'))).rejects.toThrow(/not\.json: not JSON/);
  });
});

describe('a report.json cut off (a full disk, a copy cut short)', () => {
  const text = renderString('json', JSON.parse(renderString('json', makeReport(120))) as ReturnType<typeof makeReport>);
  const resultsAt = text.indexOf('"results": [');
  const ids = (path: string) => scanReport(path, QuestionResultSchema.pick({ id: true }), () => {});
  const cut = (name: string, end: number) => write(name, text.slice(0, end));
  const lineEnd = (id: string) => text.indexOf('\n', text.indexOf(`"id":"${id}"`)) + 1;

  it('says so, naming the file and how many results it holds whole, whether cut inside a result or after one', async () => {
    const inside = cut('inside.json', text.indexOf('"outcome"', text.indexOf('"id":"q00031"')));
    const after = cut('after.json', lineEnd('q00031'));
    const why = (n: number) => `cut off: the file ends before its results close, after ${n} results (it was not written or copied completely, e.g. on a full disk or by a transfer cut short)`;
    for (const [path, whole] of [[inside, 30], [after, 31]] as const) {
      await expect(openReport(path)).rejects.toThrow(`${path}: ${why(whole)}`);
      await expect(ids(path)).rejects.toThrow(`${path}: ${why(whole)}`);
    }
    const noNewline = cut('no-newline.json', lineEnd('q00031') - 1); // the result whole, its newline and the rest gone
    await expect(openReport(noNewline)).rejects.toThrow(`${noNewline}: cut off: the file ends before its results close, after 30 results`);
  });

  it('says so when cut before its results, or empty', async () => {
    const head = cut('head.json', Math.floor(resultsAt / 2));
    await expect(readReportHead(head)).rejects.toThrow(`${head}: cut off: the file ends before its JSON closes (`);
    await expect(openReport(head)).rejects.toThrow(`${head}: cut off: the file ends before its JSON closes (`);
    const empty = write('empty-file.json', '');
    await expect(openReport(empty)).rejects.toThrow(`${empty}: cut off: the file is empty (`);
  });

  it("beside its run's journal, says that run --resume writes it again", async () => {
    mkdirSync(`${dir}/run`);
    writeFileSync(`${dir}/run/journal.jsonl`, '{}\n');
    const path = write('run/report.json', text.slice(0, lineEnd('q00010')));
    await expect(openReport(`${dir}/run`)).rejects.toThrow(
      `${path}: cut off: the file ends before its results close, after 10 results (it was not written or copied completely, e.g. on a full disk or by a transfer cut short); answer-eval run --resume ${dir}/run writes it again from the run's journal`,
    );
  });

  it('a whole report in another layout after its first results: says how to write it again, once it reads whole', async () => {
    const other = write('extra-key.json', text.replace(/\n {2}\]\n\}\n$/, '\n  ],\n  "extra": 1\n}\n'));
    await expect(ids(other)).rejects.toThrow(
      `${other}: the results leave the layout answer-eval writes (one result per line, then "  ]" and "}") after 120 of them; answer-eval report --from ${other} --format json writes it again in that layout`,
    );
    // one that cannot be read whole says why instead (here: not JSON), not to rewrite it
    const broken = write('extra-broken.json', text.replace(/\n {2}\]\n\}\n$/, '\n  ],\n  "extra": \n}\n'));
    await expect(ids(broken)).rejects.toThrow(`${broken}: not JSON (`);
  });
});
