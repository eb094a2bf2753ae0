import { z } from 'zod';
import { ReportSchema, SCHEMA_VERSION } from '../model/report.js';

/** JSON Schema (draft 2020-12) of report.json, generated from the zod types as they are written (io: output). */
export function reportJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ReportSchema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'throw' });
  return {
    ...schema,
    $id: `https://github.com/answer-eval/answer-eval/schema/report-${SCHEMA_VERSION}.schema.json`,
    title: 'answer-eval report.json',
    description: `report.json written by answer-eval, schemaVersion ${SCHEMA_VERSION}`,
  };
}

/** The file as committed under schema/: 2-space JSON and a final newline. */
export const renderJsonSchema = (): string => `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
