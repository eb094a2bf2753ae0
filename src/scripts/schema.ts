import { mkdir } from 'node:fs/promises';
import { fromPackage } from '../util/package-root.js';
import { renderChangeLineJsonSchema, renderCompareJsonSchema } from '../compare/json-schema.js';
import { renderJsonSchema } from '../report/json-schema.js';
import { renderCliConfigSchema } from '../cli/config-schema.js';
import { renderTrendJsonSchema } from '../trend/json-schema.js';
import { writeChunks } from '../report/write.js';

/** `npm run schema`: regenerates the JSON Schemas under schema/ from the zod types (run after `npm run build`). */
await mkdir(fromPackage('schema'), { recursive: true });
const files = [
  ['report.schema.json', renderJsonSchema()],
  ['trend.schema.json', renderTrendJsonSchema()],
  ['compare.schema.json', renderCompareJsonSchema()],
  ['compare-change.schema.json', renderChangeLineJsonSchema()],
  ['config.schema.json', renderCliConfigSchema()],
] as const;
for (const [file, text] of files) {
  const target = fromPackage('schema', file);
  await writeChunks(target, [text]);
  process.stdout.write(`wrote ${target}\n`);
}
