import type { FileHandle } from 'node:fs/promises';
import { ReportSchema, schemaMajor, SCHEMA_VERSION } from '../model/report.js';
import type { ReportHead } from '../model/source.js';
import { SharedCache } from '../local-server/shared-cache.js';
import { openUnder } from '../local-server/open-under.js';
import { JsonTextError, parseJsonText, sizeText } from '../util/json-lines.js';
import { HeadScanner, type HeadEnd } from './head-scan.js';

/** The most of a report.json the index reads by default: its head (figures, verdict), not its results. */
export const MAX_HEAD_BYTES = 16 * 1024 * 1024;

/** The head of a report, or why it cannot be read (said in the index). */
export interface HeadRead {
  head?: ReportHead;
  unreadable?: string;
}

const HeadSchema = ReportSchema.omit({ results: true });

/** The bytes of `handle` up to the end of its head, reading at most `maxBytes` (in 64 KiB chunks). */
async function headBytes(handle: FileHandle, maxBytes: number): Promise<{ bytes: Buffer; end: HeadEnd | undefined }> {
  const scanner = new HeadScanner();
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < maxBytes) {
    const chunk = Buffer.alloc(Math.min(64 * 1024, maxBytes - size));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    size += bytesRead;
    const end = scanner.feed(chunk.subarray(0, bytesRead));
    if (end !== undefined) return { bytes: Buffer.concat(chunks, size), end };
  }
  return { bytes: Buffer.concat(chunks, size), end: undefined };
}

/** A report's head from its opened file, reading at most `maxBytes` of it, in any layout whose results come last. */
export async function readHead(handle: FileHandle, size: number, maxBytes: number): Promise<HeadRead> {
  const { bytes, end } = await headBytes(handle, maxBytes);
  if (end === undefined) {
    if (bytes.length >= maxBytes) return { unreadable: `its head (everything before the results) is not within its first ${sizeText(maxBytes)}, the most the index reads` };
    return { unreadable: size === 0 ? 'cut off: the file is empty' : 'cut off: the file ends before its JSON closes' };
  }
  if (end.kind === 'not-head-first') return { unreadable: `not a report.json answer-eval can list: ${end.why}` };
  const text = end.kind === 'closed' ? bytes.toString('utf8', 0, end.end) : `${bytes.toString('utf8', 0, end.end)}}`;
  let data: unknown;
  try {
    data = parseJsonText(text);
  } catch (error) {
    return { unreadable: `not JSON (${(error as JsonTextError).message})` };
  }
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version === 'string' && schemaMajor(version) !== schemaMajor(SCHEMA_VERSION)) {
    return { unreadable: `schemaVersion ${version} cannot be read by this answer-eval (schema ${SCHEMA_VERSION})` };
  }
  const parsed = HeadSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { unreadable: `${issue.path.join('.') || '(top level)'}: ${issue.message} (not a valid answer-eval report)` };
  }
  return { head: parsed.data };
}

/**
 * The heads of the reports under a root, each read once per version of its file (device, inode, size, time) and
 * shared: concurrent first visits wait for one read, later ones take it from memory. Files are opened as the server
 * opens what it serves (openUnder): a report.json swapped for a link out of the root is not read.
 */
export class HeadReader {
  readonly cache = new SharedCache<HeadRead>();

  constructor(
    private readonly root: string,
    private readonly maxBytes = MAX_HEAD_BYTES,
  ) {}

  /** The head of the report at `segments` under the root. */
  async head(segments: readonly string[]): Promise<HeadRead> {
    const opened = await openUnder(this.root, segments);
    if (opened === undefined) return { unreadable: 'it cannot be opened as a file of this directory' };
    try {
      const info = await opened.handle.stat();
      const version = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
      // the request that starts the read waits for it before closing its handle; the others wait for it too
      return await this.cache.get(opened.real, version, () => readHead(opened.handle, info.size, this.maxBytes));
    } finally {
      await opened.handle.close();
    }
  }
}
