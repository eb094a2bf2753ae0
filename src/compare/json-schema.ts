import { z } from 'zod';
import { ChangeLineSchema, COMPARE_SCHEMA_VERSION, ComparisonSchema } from './schema.js';

const BASE = 'https://github.com/answer-eval/answer-eval/schema';

/** JSON Schema (draft 2020-12) of compare.json, generated from the zod types. */
export function compareJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ComparisonSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }),
    $id: `${BASE}/compare-${COMPARE_SCHEMA_VERSION}.schema.json`,
    title: 'answer-eval compare.json',
    description: `compare.json written by answer-eval compare and run --baseline, schemaVersion ${COMPARE_SCHEMA_VERSION}`,
  };
}

/** JSON Schema of one line of changes.jsonl (every line is one such object). */
export function changeLineJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ChangeLineSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' }),
    $id: `${BASE}/compare-change-${COMPARE_SCHEMA_VERSION}.schema.json`,
    title: 'answer-eval changes.jsonl line',
    description: `One line of changes.jsonl (beside compare.json, schemaVersion ${COMPARE_SCHEMA_VERSION}): a listed question with its class`,
  };
}

/** The files as committed under schema/: 2-space JSON and a final newline. */
export const renderCompareJsonSchema = (): string => `${JSON.stringify(compareJsonSchema(), null, 2)}\n`;
export const renderChangeLineJsonSchema = (): string => `${JSON.stringify(changeLineJsonSchema(), null, 2)}\n`;
