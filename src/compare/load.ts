import { schemaMajor, type Report } from '../model/report.js';
import { checkComparable } from './compatibility.js';
import { parseReport, readJsonFile } from '../report/read.js';

/**
 * Reads and validates two reports. When both name a schemaVersion, differing majors are refused
 * (unless forced) before the schema check, so the message says what differs rather than which field fails.
 */
export async function loadPair(baseFile: string, headFile: string, force: boolean): Promise<{ base: Report; head: Report }> {
  const [rawBase, rawHead] = await Promise.all([readJsonFile(baseFile), readJsonFile(headFile)]);
  const version = (raw: unknown): string | undefined => {
    const v = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
    return typeof v === 'string' ? v : undefined;
  };
  const vb = version(rawBase);
  const vh = version(rawHead);
  if (vb !== undefined && vh !== undefined && schemaMajor(vb) !== schemaMajor(vh) && !force) {
    const stub = (schemaVersion: string) => ({ schemaVersion, run: { agent: '' } });
    checkComparable(stub(vb), stub(vh), { base: baseFile, head: headFile }, false);
  }
  return { base: parseReport(baseFile, rawBase), head: parseReport(headFile, rawHead) };
}
