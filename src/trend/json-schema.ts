import { z } from 'zod';
import { TREND_SCHEMA_VERSION, TrendSchema } from './schema.js';

/** JSON Schema (draft 2020-12) of trend.json, generated from the zod types. */
export function trendJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(TrendSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' });
  return {
    ...schema,
    $id: `https://github.com/answer-eval/answer-eval/schema/trend-${TREND_SCHEMA_VERSION}.schema.json`,
    title: 'answer-eval trend.json',
    description: `trend.json written by answer-eval trend, schemaVersion ${TREND_SCHEMA_VERSION}`,
  };
}

/** The file as committed under schema/: 2-space JSON and a final newline. */
export const renderTrendJsonSchema = (): string => `${JSON.stringify(trendJsonSchema(), null, 2)}\n`;
