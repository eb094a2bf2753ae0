import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';
import { findRuns, headCache } from './find.js';
import { renderIndex } from './index-page.js';

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

const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache', 'X-Frame-Options': 'SAMEORIGIN' };

/** A running viewer. */
export interface Viewer {
  /** e.g. `http://127.0.0.1:9840/` */
  url: string;
  close: () => Promise<void>;
}

export interface ViewerOptions {
  /** The reports directory; nothing outside it is served. */
  root: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** How the index names the directory (default: `root`). */
  name?: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** True for a host name or address of this machine only. */
export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\./.test(host);

/**
 * The file a URL path names under `root` (its real path, symbolic links resolved), or undefined: a path with `..`,
 * `.`, a hidden segment (`.git`, `.env`), an encoded slash or a NUL, a file outside `root` (a link out of it), a
 * directory or a missing file.
 */
export async function resolveUnder(root: string, pathname: string): Promise<string | undefined> {
  let segments: string[];
  try {
    segments = pathname.split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return undefined; // malformed %-encoding
  }
  if (segments.length === 0 || segments.some((s) => s.startsWith('.') || /[/\\\0]/.test(s))) return undefined;
  const real = await realpath(join(root, ...segments)).catch(() => undefined);
  if (real === undefined || !real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? real : undefined;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}, head = false): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(head ? undefined : body);
}

/**
 * Serves a reports directory read-only: `/` is the index of its runs (built again at each request, reading only
 * the head of each report.json), any other path a file under it. GET and HEAD only; with a loopback host, a request
 * must name a loopback host (a page of another site cannot reach the viewer through DNS rebinding).
 */
export async function startViewer(o: ViewerOptions): Promise<Viewer> {
  const root = await realpath(o.root);
  const cache = headCache();
  const guarded = isLoopback(o.host);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) return send(res, 405, 'answer-eval view is read-only: GET and HEAD only\n', { Allow: 'GET, HEAD' });
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
    if (guarded && !isLoopback(host)) return send(res, 421, 'answer-eval view answers only to a loopback host name (localhost, 127.0.0.1)\n', {}, head);
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://viewer').pathname;
    } catch {
      return send(res, 400, 'bad request\n', {}, head);
    }
    if (pathname === '/' || pathname === '/index.html') {
      const body = renderIndex(await findRuns(root, cache), o.name ?? o.root);
      return send(res, 200, body, { 'Content-Type': TYPES['.html']!, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:" }, head);
    }
    const file = await resolveUnder(root, pathname);
    // the pages have no icon: a browser's request for one is not a missing file
    if (file === undefined && pathname === '/favicon.ico') return send(res, 204, '', {}, head);
    if (file === undefined) return send(res, 404, `not found: ${pathname.slice(0, 200)}\n`, {}, head);
    const info = await stat(file);
    res.writeHead(200, { ...COMMON_HEADERS, 'Content-Type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': info.size, 'Last-Modified': info.mtime.toUTCString() });
    if (head) return void res.end();
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'answer-eval view could not read that\n');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${shown}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
