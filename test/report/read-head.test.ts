import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { readReportHead } from '../../src/report/read.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const dir = tempDir();

describe('readReportHead', () => {
  it('reads everything of a report.json but its results, without reading them', async () => {
    const { results: _results, ...head } = makeReport(300);
    const path = writeTemp(dir, 'report.json', renderString('json', makeReport(300)));
    expect(await readReportHead(path)).toEqual(head);
  });

  it('names the file when it is not a report', async () => {
    await expect(readReportHead(writeTemp(dir, 'other.json', '{"hello": 1}\n'))).rejects.toThrow(/other\.json: schemaVersion: .*\(not a valid answer-eval report/);
    await expect(readReportHead(`${dir}/missing.json`)).rejects.toThrow(/missing\.json: cannot read the report: no such file/);
  });

  it("keeps the cause of a failure: the file system's error, JSON.parse's", async () => {
    const missing = await readReportHead(`${dir}/missing.json`).catch((e: unknown) => e);
    expect((missing as Error).cause).toMatchObject({ code: 'ENOENT', path: `${dir}/missing.json` });
    const cut = await readReportHead(writeTemp(dir, 'cut.json', '{"schemaVersion": "1.5", "run": {')).catch((e: unknown) => e);
    expect((cut as Error).message).toMatch(/cut\.json: cut off: the file ends before its JSON closes/);
    expect((cut as Error).cause).toMatchObject({ name: 'JsonTextError', cause: expect.any(SyntaxError) });
  });
});
