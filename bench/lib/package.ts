// The built package, loaded by absolute path: bench/ is compiled to bench/.build/, where '../dist' is not.
import { DIST_INDEX } from '../paths.js';

const pkg = (await import(DIST_INDEX)) as typeof import('../../dist/index.js');

export const { fromReport, REPORT_FORMATS, readReportHead, withMetrics, scoreResults, writeReports, SCHEMA_VERSION, ChangeList, compareData, openPair, COMPARE_FORMATS } = pkg;
