// The built package, loaded by absolute path: bench/ is compiled to bench/.build/, where '../dist' is not.
import { DIST_INDEX } from '../paths.js';

const pkg = (await import(DIST_INDEX)) as typeof import('../../dist/index.js');

export const { fromReport, REPORT_FORMATS, readReportHead, withMetrics, scoreResults, writeReports, SCHEMA_VERSION, ChangeList, compareData, openPair, COMPARE_FORMATS } = pkg;

const { quantile } = (await import(new URL('compare/stats/bootstrap.js', DIST_INDEX).href)) as typeof import('../../dist/compare/stats/bootstrap.js');
/** The median of a list: the project's own quantile (type 7), as the reports compute theirs. */
export const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);
