import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderChangeLineJsonSchema, renderCompareJsonSchema } from '../compare/json-schema.js';
import { renderJsonSchema } from '../report/json-schema.js';
import { renderCliConfigSchema } from '../cli/config.js';
import { renderTrendJsonSchema } from '../trend/json-schema.js';
import { writeChunks } from '../report/write.js';

/** `npm run schema`: regenerates the JSON Schemas under schema/ from the zod types (run after `npm run build`). */
await mkdir(fileURLToPath(new URL('../../schema/', import.meta.url)), { recursive: true });
const files = [
  ['report.schema.json', renderJsonSchema()],
  ['trend.schema.json', renderTrendJsonSchema()],
  ['compare.schema.json', renderCompareJsonSchema()],
  ['compare-change.schema.json', renderChangeLineJsonSchema()],
  ['config.schema.json', renderCliConfigSchema()],
] as const;
for (const [file, text] of files) {
  const target = fileURLToPath(new URL(`../../schema/${file}`, import.meta.url));
  await writeChunks(target, [text]);
  process.stdout.write(`wrote ${target}\n`);
}
