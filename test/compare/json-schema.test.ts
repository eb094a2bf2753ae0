import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/compare/changes.js';
import { compareReports } from '../../src/compare/compare.js';
import { renderChangeLineJsonSchema, renderCompareJsonSchema } from '../../src/compare/json-schema.js';
import { renderCompareJson } from '../../src/compare/render/json.js';
import { comparisonWithVerdict, judge } from '../../src/gate/verdict.js';
import { answer, FILES, many, report, result } from './fixtures.js';

const committed = (file: string) => readFileSync(fileURLToPath(new URL(`../../schema/${file}`, import.meta.url)), 'utf8');

describe('schema/compare.schema.json and schema/compare-change.schema.json', () => {
  it('are what `npm run schema` generates from the zod types (run it after changing them)', () => {
    expect(committed('compare.schema.json')).toBe(renderCompareJsonSchema());
    expect(committed('compare-change.schema.json')).toBe(renderChangeLineJsonSchema());
  });

  it('validate a compare.json with every class and its changes.jsonl lines; reject an unknown key', () => {
    const base = report([...many('a', 3, 'correct'), result('w', 'wrong', 2), result('e', 'correct'), result('gone', 'correct'), result('edit', 'correct'), result('d', 'correct', 1, 90, { tags: ['t'] })]);
    const head = report([
      ...many('a', 2, 'correct'),
      result('a2', 'wrong', 3),
      result('w', 'correct'),
      result('e', 'error'),
      result('edit', 'correct', 1, 90, { question: 'reworded' }),
      result('d', 'correct', 1, 80, { tags: ['t'], answers: [answer(1, 80, { category: 'c' }), answer(2, 10)] }),
      result('new', 'wrong'),
    ]);
    const changes = new ChangeList();
    const c = compareReports(base, head, { files: FILES, resamples: 50 }, changes);
    const gated = comparisonWithVerdict(c, judge(head.summary, c, { quality: { minAccuracy: 0.5 }, regression: { failOn: 'regression' } }));
    expect(new Set(changes.lines.map((l) => l.class))).toEqual(new Set(['broken', 'fixed', 'errors', 'drift', 'removed', 'changed', 'added']));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(committed('compare.schema.json')));
    const json = JSON.parse(renderCompareJson(gated)) as Record<string, unknown>;
    expect(validate(json)).toBe(true);
    expect(validate.errors ?? null).toBeNull();
    expect(validate({ ...json, surprise: 1 })).toBe(false);
    const line = ajv.compile(JSON.parse(committed('compare-change.schema.json')));
    for (const l of changes.lines) expect(line(JSON.parse(JSON.stringify(l)))).toBe(true);
    expect(line({ ...changes.lines[0], class: 'unknown' })).toBe(false);
  });
});
