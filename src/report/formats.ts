import { renderCsv } from './csv.js';
import { renderHtml } from './html/index.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './schema.js';

/** Every report format: its file name and a pure renderer. Adding one = one file + one line here. */
export const REPORT_FORMATS = {
  json: { file: 'report.json', render: renderJson },
  html: { file: 'report.html', render: renderHtml },
  junit: { file: 'junit.xml', render: renderJunit },
  md: { file: 'summary.md', render: renderMarkdown },
  csv: { file: 'results.csv', render: renderCsv },
} satisfies Record<string, { file: string; render: (report: Report) => string }>;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const ALL_FORMATS = Object.keys(REPORT_FORMATS) as ReportFormat[];
