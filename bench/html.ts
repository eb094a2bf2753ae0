// (d) Time to render report.html for 100k results, and its size, from a real run's report.json.
import { readFileSync } from 'node:fs';
import type { Report } from '../dist/index.js';
import { REPORT_FORMATS } from '../dist/index.js';

export interface HtmlResult {
  questions: number;
  renderSeconds: number;
  sizeMb: number;
}

export function benchHtml(reportPath: string): HtmlResult {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const formats = REPORT_FORMATS as Record<string, { render: (r: Report) => string }>;
  const html = formats['html'];
  if (!html) throw new Error('this build has no html report format');
  html.render({ ...report, results: report.results.slice(0, 100) }); // warm-up
  const started = performance.now();
  const text = html.render(report);
  const renderSeconds = (performance.now() - started) / 1000;
  return { questions: report.results.length, renderSeconds, sizeMb: Buffer.byteLength(text) / 1024 / 1024 };
}
