import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/model/report.js';
import { renderString } from '../../src/report/formats.js';
import { HeadReader } from '../../src/view/head.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// The index reads the head of each report.json in any layout, bounded, and once for requests that come together.

const dir = realpathSync(tempDir('answer-eval-view-head-'));
const report = makeReport(5);
mkdirSync(join(dir, 'ours'));
writeFileSync(join(dir, 'ours', 'report.json'), renderString('json', report));
mkdirSync(join(dir, 'minified'));
writeFileSync(join(dir, 'minified', 'report.json'), JSON.stringify(report));

describe('HeadReader', () => {
  it('reads the same head from the layout answer-eval writes and from a minified report', async () => {
    const reader = new HeadReader(dir);
    const ours = await reader.head(['ours', 'report.json']);
    const minified = await reader.head(['minified', 'report.json']);
    expect(ours.unreadable).toBeUndefined();
    expect(ours.head!.run).toEqual(report.run);
    expect(minified.head!.summary).toEqual(report.summary);
    expect(minified.head!.run.startedAt).toBe(report.run.startedAt);
  });

  it('four requests at once share one read; a changed file is read again', async () => {
    const reader = new HeadReader(dir);
    const heads = await Promise.all(Array.from({ length: 4 }, () => reader.head(['minified', 'report.json'])));
    expect(reader.cache.computed).toBe(1);
    expect(new Set(heads).size).toBe(1);
    await reader.head(['minified', 'report.json']);
    expect(reader.cache.computed).toBe(1);
    writeFileSync(join(dir, 'minified', 'report.json'), JSON.stringify({ ...report, run: { ...report.run, agent: 'other' } }));
    expect((await reader.head(['minified', 'report.json'])).head!.run.agent).toBe('other');
    expect(reader.cache.computed).toBe(2);
  });

  it('a head beyond the bound, a file cut short, another schema major: why, in words', async () => {
    const reader = new HeadReader(dir, 1024);
    expect((await reader.head(['ours', 'report.json'])).unreadable).toBe('its head (everything before the results) is not within its first 1 KiB, the most the index reads');
    writeFileSync(join(dir, 'cut.json'), '{"schemaVersion": "1');
    expect((await reader.head(['cut.json'])).unreadable).toBe('cut off: the file ends before its JSON closes');
    writeFileSync(join(dir, 'v9.json'), '{"results": [], "schemaVersion": "1.5"}');
    expect((await new HeadReader(dir).head(['v9.json'])).unreadable).toBe('not a report.json answer-eval can list: its results come first, before the run');
    writeFileSync(join(dir, 'v9b.json'), '{"schemaVersion": "9.0", "run": {}, "results": []}');
    expect((await new HeadReader(dir).head(['v9b.json'])).unreadable).toBe(`schemaVersion 9.0 cannot be read by this answer-eval (schema ${SCHEMA_VERSION})`);
  });
});
