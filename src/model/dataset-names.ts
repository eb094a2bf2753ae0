import { extname } from 'node:path';

/** A question set's format. */
export type DatasetFormat = 'csv' | 'jsonl';

const JSONL_EXTENSIONS = ['.jsonl', '.ndjson', '.json'];
const CSV_EXTENSIONS = ['.csv', '.tsv', '.txt'];

/** Whether a file name says it is a question set (an extension the reader knows). */
export const isDatasetName = (name: string): boolean => formatByName(name) !== undefined;

/** CSV or JSONL by the name's extension, if it has one the reader knows. */
export function formatByName(name: string): DatasetFormat | undefined {
  const ext = extname(name).toLowerCase();
  return JSONL_EXTENSIONS.includes(ext) ? 'jsonl' : CSV_EXTENSIONS.includes(ext) ? 'csv' : undefined;
}
