import { closeSync, openSync, readSync } from 'node:fs';

export interface RunFigures {
  summary: { total: number; outcomes: { error: number } };
  run: { durationMs: number };
}

/** The part of a report.json before its results (they come last): a million results do not fit in a string. */
export function readReportHead(path: string): RunFigures {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(8 * 1024 * 1024);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    const end = text.indexOf(',\n  "results": [');
    if (end < 0) throw new Error(`${path}: no results key in its first 8 MiB`);
    return JSON.parse(`${text.slice(0, end)}\n}`) as RunFigures;
  } finally {
    closeSync(fd);
  }
}
