import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderJsonSchema } from '../report/json-schema.js';
import { renderTrendJsonSchema } from '../trend/json-schema.js';

/** `npm run schema`: regenerates schema/report.schema.json and schema/trend.schema.json from the zod types (run after `npm run build`). */
await mkdir(fileURLToPath(new URL('../../schema/', import.meta.url)), { recursive: true });
for (const [file, text] of [['report.schema.json', renderJsonSchema()], ['trend.schema.json', renderTrendJsonSchema()]] as const) {
  const target = fileURLToPath(new URL(`../../schema/${file}`, import.meta.url));
  await writeFile(target, text);
  process.stdout.write(`wrote ${target}\n`);
}
