import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTrend } from '../../src/trend/build.js';
import { findRuns } from '../../src/trend/discover.js';
import { renderTrendJsonSchema } from '../../src/trend/json-schema.js';
import { renderTrendHtml } from '../../src/trend/render/html.js';
import { renderTrendJson } from '../../src/trend/render/index.js';
import { renderTrendMarkdown } from '../../src/trend/render/markdown.js';
import { renderTrendQuarantine, writtenByTrend } from '../../src/trend/render/quarantine.js';
import type { Trend } from '../../src/trend/schema.js';
import { writeTrend } from '../../src/trend/write.js';
import { ReportWriteError } from '../../src/errors.js';
import { HOSTILE } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';
import { writeFixtureRuns } from './fixture.js';

const dir = tempDir('answer-eval-trend-render-');
const text = (chunks: Iterable<string>): string => [...chunks].join('');
let trend: Trend;

beforeAll(async () => {
  writeFixtureRuns(join(dir, 'runs'), 6, 120);
  trend = await buildTrend(await findRuns([join(dir, 'runs')]), { gates: { maxNewFailures: 0 } });
});

describe('trend renderers', () => {
  it('trend.md: the verdict on the first line, as summary.md has it; every string from a report escaped', () => {
    const md = text(renderTrendMarkdown(trend));
    const lines = md.split('\n');
    expect(lines[0]).toMatch(/^\*\*❌ answer-eval: 1 of 1 gate FAILED\*\*: \d+ new failures &gt; --max-new-failures 0/);
    expect(lines[2]).toMatch(/^- ❌ `--max-new-failures` FAILED: \d+ new failures &gt; --max-new-failures 0/);
    expect(lines[4]).toBe('### answer-eval trend · 6 runs');
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;');
  });

  it('quarantine.txt: its last line tells the file trend wrote, unchanged, from any other', () => {
    const written = text(renderTrendQuarantine(trend));
    expect(written.split('\n').at(-2)).toMatch(/^# written by answer-eval trend; sha256 of the lines above: [0-9a-f]{64} \(trend writes over this file only while it is unchanged\)$/);
    expect(writtenByTrend(written)).toBe(true);
    const lines = written.split('\n');
    expect(writtenByTrend([lines[0], ...lines.slice(2)].join('\n'))).toBe(false); // a line taken out
    expect(writtenByTrend(written.replace(/\n$/, ''))).toBe(false);
    expect(writtenByTrend(`# reviewed\n${written}`)).toBe(false);
    expect(writtenByTrend('q1\n')).toBe(false);
    expect(writtenByTrend('')).toBe(false);
  });

  it('trend.html: no string from a report is markup', () => {
    const html = text(renderTrendHtml(trend));
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain(HOSTILE.img);
    expect(html).toContain("default-src 'none'");
  });

  it('schema/trend.schema.json is what `npm run schema` generates, and validates trend.json', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../schema/trend.schema.json', import.meta.url)), 'utf8');
    expect(committed).toBe(renderTrendJsonSchema());
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(committed));
    expect(validate(JSON.parse(text(renderTrendJson(trend))))).toBe(true);
    expect(validate.errors ?? null).toBeNull();
  });

  it('reads a run directory, a report.json or a directory of runs, each once; refuses a directory without any', async () => {
    const runs = join(dir, 'runs');
    const found = await findRuns([runs, join(runs, 'run-0'), join(runs, 'run-1', 'report.json')]);
    expect(found).toHaveLength(6);
    await expect(findRuns([dir + '/nothing'])).rejects.toThrow(/nothing: no such file or directory/);
    await expect(findRuns([dir])).rejects.toThrow(/no report\.json in it or in its subdirectories/);
  });

  it('a file the file system refuses is named in a ReportWriteError (exit 3); the others are written', async () => {
    const out = join(dir, 'refused');
    mkdirSync(join(out, 'trend.md', 'held'), { recursive: true }); // a directory that is not empty where trend.md goes: the rename fails
    const error = await writeTrend(trend, out).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).exitCode).toBe(3);
    expect((error as ReportWriteError).failed.map((f) => f.path)).toEqual([join(out, 'trend.md')]);
    expect((error as ReportWriteError).written).toEqual([join(out, 'trend.html'), join(out, 'trend.json'), join(out, 'quarantine.txt')]);
  });
});
