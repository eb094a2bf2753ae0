import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { openReport } from '../../src/report/read.js';
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
    await expect(openReport(write('not.json', '{"results": ['))).rejects.toThrow(/not\.json: not JSON/);
  });
});
