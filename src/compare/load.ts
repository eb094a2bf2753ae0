import { open } from 'node:fs/promises';
import { schemaMajor } from '../model/report.js';
import type { ReportData } from '../model/source.js';
import { openReport, reportFile } from '../report/read.js';
import { checkComparable } from './compatibility.js';

/** The schemaVersion a report.json names near its start (answer-eval writes it first), if any. */
async function peekSchemaVersion(given: string): Promise<string | undefined> {
  const path = await reportFile(given);
  const handle = await open(path).catch(() => undefined);
  if (!handle) return undefined; // openReport says why
  try {
    const bytes = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return /"schemaVersion"\s*:\s*"([^"]*)"/.exec(bytes.toString('utf8', 0, bytesRead))?.[1];
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
