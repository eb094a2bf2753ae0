import { open } from 'node:fs/promises';
import { schemaMajor } from '../model/report.js';
import type { ReportData } from '../model/source.js';
import { openReport, otherOutput, reportFile } from '../report/read.js';
import { checkComparable } from './compatibility.js';

/** A compare.json's start: `base` is its first object after the version and the tool, and begins with the file it names. */
const COMPARE_JSON = /"base"\s*:\s*\{\s*"file"\s*:\s*("(?:[^"\\]|\\.)*")[\s\S]*?"head"\s*:\s*\{\s*"file"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * The schemaVersion a report.json names near its start (answer-eval writes it first), if any. A compare.json (its
 * version is compare's) is refused here for what it is, before its version could be taken for a report's.
 */
async function peekSchemaVersion(given: string): Promise<string | undefined> {
  const path = await reportFile(given);
  const handle = await open(path).catch(() => undefined);
  if (!handle) return undefined; // openReport says why
  try {
    const bytes = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    const start = bytes.toString('utf8', 0, bytesRead);
    const files = /"run"\s*:/.test(start) ? null : COMPARE_JSON.exec(start);
    const other = files && otherOutput(path, { base: { file: JSON.parse(files[1]!) as unknown }, head: { file: JSON.parse(files[2]!) as unknown } });
    if (other) throw other;
    return /"schemaVersion"\s*:\s*"([^"]*)"/.exec(start)?.[1];
  } finally {
    await handle.close();
  }
}

/**
 * Opens two reports for a comparison, their results read one at a time (openReport: each checked against the
 * schema, errors naming the file and the first bad field). When both name a schemaVersion, differing majors are
 * refused (unless forced) before anything else, so the message says what differs rather than which field fails.
 */
export async function openPair(baseFile: string, headFile: string, force: boolean): Promise<{ base: ReportData; head: ReportData }> {
  const [vb, vh] = await Promise.all([peekSchemaVersion(baseFile), peekSchemaVersion(headFile)]);
  if (vb !== undefined && vh !== undefined && schemaMajor(vb) !== schemaMajor(vh) && !force) {
    const stub = (schemaVersion: string) => ({ schemaVersion, run: { agent: '' } });
    checkComparable(stub(vb), stub(vh), { base: baseFile, head: headFile }, false);
  }
  return { base: await openReport(baseFile), head: await openReport(headFile) };
}
