import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { ReportSchema, SCHEMA_VERSION, type Report } from './schema.js';

/** Reads and checks a saved report.json, naming the file and the first bad field. */
export async function readReport(path: string): Promise<Report> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  const version = (json as { schemaVersion?: unknown })?.schemaVersion;
  if (typeof version === 'string' && version.split('.')[0] !== SCHEMA_VERSION.split('.')[0]) {
    throw new ConfigError(`${path}: schemaVersion ${version} cannot be read by this answer-eval (it reads ${SCHEMA_VERSION})`);
  }
  const parsed = ReportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${path}: not an answer-eval report: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
