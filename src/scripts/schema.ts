import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderJsonSchema } from '../report/json-schema.js';

/** `npm run schema`: regenerates schema/report.schema.json from the zod types (run after `npm run build`). */
const target = fileURLToPath(new URL('../../schema/report.schema.json', import.meta.url));
await mkdir(fileURLToPath(new URL('../../schema/', import.meta.url)), { recursive: true });
await writeFile(target, renderJsonSchema());
process.stdout.write(`wrote ${target}\n`);
