import { appendFile } from 'node:fs/promises';
import { renderMarkdown } from './markdown.js';
import type { ReportData } from '../model/source.js';
import { withMetrics } from '../score/metrics/index.js';

/** Appends summary.md to the file GitHub Actions names in `$GITHUB_STEP_SUMMARY`; does nothing when unset. */
export async function appendStepSummary(data: ReportData, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (!file) return undefined;
  await appendFile(file, `${[...renderMarkdown(withMetrics(data))].join('')}\n`);
  return file;
}
