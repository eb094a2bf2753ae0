import { renderCsv } from './csv.js';
import { renderHtml } from './html/index.js';
import { renderJson } from './json.js';
import { renderJunit, type JunitOptions } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from '../model/report.js';
import { fromReport, type ScoredData } from '../model/source.js';
import { withMetrics } from '../score/metrics/index.js';

/**
 * Every report format: its file name and a pure renderer yielding the file in chunks, in a bounded number of
 * passes over the results. Renderers take a report with its metrics (`withMetrics`). Adding one = one file + one line here.
 */
export const REPORT_FORMATS = {
  json: { file: 'report.json', render: renderJson },
  html: { file: 'report.html', render: renderHtml },
  junit: { file: 'junit.xml', render: renderJunit },
  md: { file: 'summary.md', render: renderMarkdown },
  csv: { file: 'results.csv', render: renderCsv },
} satisfies Record<string, { file: string; render: (data: ScoredData, o?: RenderOptions) => Iterable<string> }>;

/** What some renderers are written with besides the report: junit.xml, a baseline's standings. */
export type RenderOptions = JunitOptions;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const ALL_FORMATS = Object.keys(REPORT_FORMATS) as ReportFormat[];

/** One format of an in-memory report as one string: for tests and small reports. */
export const renderString = (format: ReportFormat, report: Report): string => [...REPORT_FORMATS[format].render(withMetrics(fromReport(report)))].join('');
