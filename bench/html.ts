// (d) Time to render report.html for 100k results, and its size, from a real run's report.json.
import { readFileSync } from 'node:fs';
import type { Report } from '../dist/index.js';
import { fromReport, REPORT_FORMATS, withMetrics } from './lib/package.js';

export interface HtmlResult {
  questions: number;
  renderSeconds: number;
  sizeMb: number;
}

export function benchHtml(reportPath: string): HtmlResult {
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  const html = REPORT_FORMATS.html;
  const bytes = (r: Report) => {
    let total = 0;
    for (const chunk of html.render(withMetrics(fromReport(r)))) total += Buffer.byteLength(chunk);
    return total;
  };
  bytes({ ...report, results: report.results.slice(0, 100) }); // warm-up
  const started = performance.now();
  const size = bytes(report);
  const renderSeconds = (performance.now() - started) / 1000;
  return { questions: report.results.length, renderSeconds, sizeMb: size / 1024 / 1024 };
}
