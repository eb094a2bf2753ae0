import { open, readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { ReportSchema, schemaMajor, SCHEMA_VERSION, type Report } from '../model/report.js';
import type { ReportHead } from '../model/source.js';

const cannotRead = (path: string, error: unknown): ConfigError =>
  new ConfigError(`${path}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? String(error)})`);

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${path}: not JSON (${(error as Error).message}); expected a report.json written by answer-eval`);
  }
}

/** Reads a file as JSON; a ConfigError names the file when it is missing or not JSON. */
export async function readJsonFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  return parseJson(path, text);
}

/** Refuses a report of another schema major, naming both versions. */
function checkVersion(path: string, data: unknown): void {
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'string' && schemaMajor(version) !== schemaMajor(SCHEMA_VERSION)) {
    throw new ConfigError(`${path}: schemaVersion ${version} cannot be read by this answer-eval (schema ${SCHEMA_VERSION}); use an answer-eval of the same major version`);
  }
}

/** Validates with `schema`; a ConfigError names the file and the first bad field, e.g. `results[1].outcome`. */
function validate<S extends z.ZodType>(path: string, schema: S, data: unknown): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');
  throw new ConfigError(`${path}: ${at || '(top level)'}: ${issue.message} (not a valid answer-eval report; ${parsed.error.issues.length} problem(s))`);
}

/** Validates a report.json already parsed. */
export const parseReport = (path: string, data: unknown): Report => validate(path, ReportSchema, data);

/**
 * Reads and validates a saved report.json. Errors name the file and the first bad field;
 * a report of another schema major is refused, naming both versions.
 */
export async function readReport(path: string): Promise<Report> {
  const data = await readJsonFile(path);
  checkVersion(path, data);
  return parseReport(path, data);
}

const RESULTS_KEY = ',\n  "results": [';
const HeadSchema = ReportSchema.omit({ results: true });

/**
 * Reads the part of a report.json before its results (answer-eval writes them last), so a report of a
 * million questions, far too large for one string, can still be merged or summarized.
 */
export async function readReportHead(path: string): Promise<ReportHead> {
  const handle = await open(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  let text = '';
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      position += bytesRead;
      text += chunk.subarray(0, bytesRead).toString('utf8');
      const end = text.indexOf(RESULTS_KEY);
      if (end >= 0) {
        text = `${text.slice(0, end)}\n}`;
        break;
      }
      if (bytesRead === 0 || position > 256 * 1024 * 1024) throw new ConfigError(`${path}: not a report.json written by answer-eval (no "results" after its summary)`);
    }
  } finally {
    await handle.close();
  }
  const data = parseJson(path, text);
  checkVersion(path, data);
  return validate(path, HeadSchema, data);
}
