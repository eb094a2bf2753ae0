import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * The report.html written beside a report.json (or in a run's directory, as --baseline takes it), as a link from a
 * page written into `fromDir` (compare.html, trend.html): a relative URL, each folder name encoded. Undefined when
 * there is no report.html there (a run written with --format json). `moved`: where the page will be by the time it is
 * read (a staging directory's files are moved). Reads the file system: for the writers only.
 */
export function reportHtmlLink(report: string, fromDir: string, moved: (path: string) => string = (p) => p): string | undefined {
  const isDir = statSync(report, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const html = resolve(isDir ? report : dirname(report), 'report.html');
  if (!existsSync(html)) return undefined;
  return relative(resolve(fromDir), moved(html)).split(sep).map(encodeURIComponent).join('/');
}
