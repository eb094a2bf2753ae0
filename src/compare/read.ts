import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors.js';
import { ReportSchema, type Report } from '../report/schema.js';

/** Reads a file as JSON; a ConfigError names the file when it is missing or not JSON. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${file}: not a JSON report (${(error as Error).message})`);
  }
}

/** Validates a report.json; a ConfigError names the file and the first bad field. */
export function parseReport(file: string, data: unknown): Report {
  const parsed = ReportSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length === 0 ? '(top level)' : issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : '';
  throw new ConfigError(`${file}: not a valid answer-eval report: ${where}: ${issue.message}${more}`);
}

export const readReport = async (file: string): Promise<Report> => parseReport(file, await readJsonFile(file));
