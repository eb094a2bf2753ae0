import { realpath } from 'node:fs/promises';
import { extname } from 'node:path';
import { openUnder } from '../local-server/open-under.js';
import { COMMON_HEADERS, HttpError, SANDBOX_CSP, send, strictCsp } from '../local-server/respond.js';
import { startLocalServer, type LocalRequest, type LocalServer } from '../local-server/server.js';
import { findRuns } from './find.js';
import { HeadReader, MAX_HEAD_BYTES } from './head.js';
import { INDEX_STYLE, renderIndex } from './index-page.js';

/** Content types by extension: the files answer-eval writes, and a few more a reports directory may hold. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.trec': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** The index: its one inline style, nothing else. */
const INDEX_CSP = strictCsp({ style: INDEX_STYLE });

/** A running viewer. */
export type Viewer = LocalServer;

export interface ViewerOptions {
  /** The reports directory; nothing outside it is served. */
  root: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** How the index names the directory (default: `root`). */
  name?: string;
  /** The most bytes of a report.json the index reads (its head). @default 16 MiB */
  maxHeadBytes?: number;
}

/** The segments of a URL path, decoded; undefined for a malformed %-encoding. */
function segmentsOf(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * Serves a reports directory read-only: `/` is the index of its runs (built again at each request, reading only
 * the head of each report.json, once per version of the file), any other path a file under it, opened first and
 * judged by what was opened (src/local-server/open-under.ts). GET and HEAD only. Every file is served in a sandbox
 * (a report.html runs its script, but cannot read another file of the viewer); the index has a strict policy. The
 * Host and Origin checks are the local server's (src/local-server/server.ts).
 */
export async function startViewer(o: ViewerOptions): Promise<Viewer> {
  const root = await realpath(o.root);
  const heads = new HeadReader(root, o.maxHeadBytes ?? MAX_HEAD_BYTES);

  const handle = async ({ req, res, url, head }: LocalRequest): Promise<void> => {
    if (req.method !== 'GET' && !head) throw new HttpError(405, 'answer-eval view is read-only: GET and HEAD only\n', { Allow: 'GET, HEAD' });
    const pathname = url.pathname;
    if (pathname === '/' || pathname === '/index.html') {
      const body = renderIndex(await findRuns(root, heads), o.name ?? o.root);
      return send(res, 200, body, { 'Content-Type': TYPES['.html']!, 'Content-Security-Policy': INDEX_CSP }, head);
    }
    const segments = segmentsOf(pathname);
    const file = segments === undefined ? undefined : await openUnder(root, segments);
    // the pages have no icon: a browser's request for one is not a missing file
    if (file === undefined && pathname === '/favicon.ico') return send(res, 204, '', {}, head);
    if (file === undefined) return send(res, 404, `not found: ${pathname.slice(0, 200)}\n`, {}, head);
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': TYPES[extname(file.real).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': file.size,
      'Last-Modified': file.mtime.toUTCString(),
      'Content-Security-Policy': SANDBOX_CSP,
    });
    if (head || file.size === 0) {
      await file.handle.close();
      return void res.end();
    }
    // the bytes of the file opened, as many as it held when opened
    const stream = file.handle.createReadStream({ start: 0, end: file.size - 1 });
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  };

  return startLocalServer({ host: o.host, port: o.port, name: 'answer-eval view', handle });
}
