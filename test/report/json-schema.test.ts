import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { renderJsonSchema } from '../../src/report/json-schema.js';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

const committed = readFileSync(fileURLToPath(new URL('../../schema/report.schema.json', import.meta.url)), 'utf8');
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('schema/report.schema.json', () => {
  it('is what `npm run schema` generates from the zod types (run it after changing them)', () => {
    expect(committed).toBe(renderJsonSchema());
  });

  it('validates a real report; rejects a report with a wrong or unknown key', async () => {
    const server = await startSpecServer((req) => {
      const text = (req.body['question'] as { text: string }).text;
      if (text === 'broken') return { body: '{"answers": [' };
      if (text === 'weather') return { body: { answers: [item(99, 5, { is_dummy_floor_answer: 'true' })] } };
      return { body: { post_processed_answer: 'again?', answers: [item(1, 90, { category: 'Billing', extra_field: 'kept' }), item(2, 40)] } };
    });
    servers.push(server);
    const dataset = writeTemp(tempDir(), 'qs.csv', 'id,question,expected_sequence,expect,tags,language\na,pay,1,,billing,it\nb,other,2,,billing|card,\nc,weather,,fallback,,\nd,broken,1,,,\ne,free,,,,\n');
    const { report } = await runEvaluation({ dataset, baseUrl: server.url, agent: 'a', agentCode: 'c', retries: 0 });
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(committed));
    const json = JSON.parse(JSON.stringify(report)) as Record<string, unknown>;
    const valid = validate(json);
    expect(validate.errors ?? null).toBeNull();
    expect(valid).toBe(true);
    expect(report.metrics?.breakdowns.tag.map((s) => s.key)).toEqual(['billing', 'card']);
    expect(validate({ ...json, summary: { ...(json['summary'] as object), total: 'five' } })).toBe(false);
    expect(validate({ ...json, surprise: 1 })).toBe(false);
  });
});
