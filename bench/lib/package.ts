// The built package, loaded by absolute path: bench/ is compiled to bench/.build/, where '../dist' is not.
import { DIST_INDEX } from '../paths.js';

// the internals a benchmark measures, module by module (the package's API, dist/index.js, exports the jobs)
const dist = async <T>(path: string): Promise<T> => (await import(new URL(path, DIST_INDEX).href)) as T;

export const { fromReport } = await dist<typeof import('../../dist/model/source.js')>('model/source.js');
export const { REPORT_FORMATS } = await dist<typeof import('../../dist/report/formats.js')>('report/formats.js');
export const { readReportHead } = await dist<typeof import('../../dist/report/read.js')>('report/read.js');
export const { withMetrics, scoreResults } = await dist<typeof import('../../dist/score/metrics/index.js')>('score/metrics/index.js');
export const { writeReports } = await dist<typeof import('../../dist/report/write.js')>('report/write.js');
export const { SCHEMA_VERSION } = await dist<typeof import('../../dist/model/report.js')>('model/report.js');
export const { ChangeList } = await dist<typeof import('../../dist/compare/changes.js')>('compare/changes.js');
export const { compareData } = await dist<typeof import('../../dist/compare/compare.js')>('compare/compare.js');
export const { openPair } = await dist<typeof import('../../dist/compare/load.js')>('compare/load.js');
export const { COMPARE_FORMATS } = await dist<typeof import('../../dist/compare/render/index.js')>('compare/render/index.js');

const { quantile } = (await import(new URL('compare/stats/bootstrap.js', DIST_INDEX).href)) as typeof import('../../dist/compare/stats/bootstrap.js');
/** The median of a list: the project's own quantile (type 7), as the reports compute theirs. */
export const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

const { mulberry32 } = (await import(new URL('util/random.js', DIST_INDEX).href)) as typeof import('../../dist/util/random.js');
/** The project's seeded PRNG, for data that must be the same on every run. */
export { mulberry32 };
