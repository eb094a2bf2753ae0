import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { startViewer, type Viewer } from '../../src/view/server.js';
import { HOSTILE, makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// `answer-eval view` serves a reports directory read-only: an index of its runs, and the files under it, nothing else.

const dir = tempDir('answer-eval-view-');
const root = join(dir, 'reports');
let viewer: Viewer;

/** A raw request: the path is sent as written (fetch would resolve `..` before sending). */
function raw(path: string, o: { method?: string; host?: string } = {}): Promise<{ status: number; type: string | undefined; body: string; headers: Record<string, unknown> }> {
  const url = new URL(viewer.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: o.method ?? 'GET', headers: { host: o.host ?? url.host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A run directory holding a report.json (and report.html), started at `startedAt`. */
function writeRun(path: string, startedAt: string, edit: (r: ReturnType<typeof makeReport>) => void = () => {}): void {
  const report = makeReport(20);
  report.run.startedAt = startedAt;
  edit(report);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'report.json'), renderString('json', report));
  writeFileSync(join(path, 'report.html'), renderString('html', report));
}

beforeAll(async () => {
  writeRun(join(root, 'nightly', '2026-11-24'), '2026-11-24T02:00:00.000Z');
  writeRun(join(root, 'nightly', '2026-11-25'), '2026-11-25T02:00:00.000Z', (r) => {
    r.gates = { passed: false, results: [{ gate: '--min-accuracy', metric: 'top1Accuracy', threshold: 0.99, value: 0.8, passed: false, message: 'top1Accuracy 0.800 < --min-accuracy 0.99' }] };
  });
  writeRun(join(root, `pr ${HOSTILE.script}`), '2026-11-26T09:30:00.000Z', (r) => {
    r.run.dataset.path = `/abs/path/${HOSTILE.img}.csv`;
    r.run.agent = HOSTILE.quotes;
  });
  writeFileSync(join(root, 'nightly', '2026-11-25', 'compare.html'), '<!doctype html><title>compare</title>');
  mkdirSync(join(root, 'trend'));
  writeFileSync(join(root, 'trend', 'trend.html'), '<!doctype html><title>trend</title>');
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', 'report.json'), '{"schemaVersion": "1');
  // outside DIR, and ways to reach it
  writeFileSync(join(dir, 'secret.txt'), 'outside\n');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'link-out.txt'));
  mkdirSync(join(dir, 'elsewhere'));
  writeFileSync(join(dir, 'elsewhere', 'report.html'), 'outside\n');
  symlinkSync(join(dir, 'elsewhere'), join(root, 'dir-out'));
  writeFileSync(join(root, '.env'), 'TOKEN=1\n');
  viewer = await startViewer({ root, host: '127.0.0.1', port: 0 });
});

afterAll(() => viewer.close());

describe('the index', () => {
  it('lists every run newest first, with its figures and verdict, and links each report.html, compare.html and trend.html', async () => {
    const res = await fetch(viewer.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const html = await res.text();
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    // the hostile name holds a slash: two directories
    const hostileDir = `pr ${HOSTILE.script}`.split('/').map(encodeURIComponent).join('/');
    expect([...new Set(links.filter((l) => l.endsWith('report.html')))]).toEqual([`${hostileDir}/report.html`, 'nightly/2026-11-25/report.html', 'nightly/2026-11-24/report.html']);
    expect(links).toContain('nightly/2026-11-25/compare.html');
    expect(links).toContain('trend/trend.html');
    expect(html).toContain('1 of 1 gate FAILED');
    expect(html).toContain('report.json cannot be read: cut off');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;.csv');
    for (const link of links.filter((l) => l.endsWith('.html'))) {
      const page = await fetch(new URL(link, viewer.url));
      expect(page.status, link).toBe(200);
      expect(page.headers.get('content-type'), link).toBe('text/html; charset=utf-8');
    }
  });

  it('HEAD answers the headers only; any other method is 405', async () => {
    const head = await raw('/nightly/2026-11-24/report.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.type).toBe('application/json; charset=utf-8');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
    expect(head.body).toBe('');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await raw('/nightly/2026-11-24/report.json', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
    }
  });
});

describe('nothing outside DIR is served', () => {
  it('no `..`, encoded or not, no encoded slash, no hidden file, no malformed path', async () => {
    for (const path of ['/../secret.txt', '/nightly/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E%2Fsecret.txt', '/nightly/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/.env', '/%2eenv', '/nightly/%00', '/%E0%A4%A', '//etc/passwd', '/nightly']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('outside');
      expect(res.body, path).not.toContain('TOKEN');
    }
  });

  it('no symbolic link out of DIR, to a file or a directory', async () => {
    expect((await raw('/link-out.txt')).status).toBe(404);
    expect((await raw('/dir-out/report.html')).status).toBe(404);
    expect(await (await fetch(viewer.url)).text()).not.toContain('dir-out');
  });

  it('a request naming another host is refused (DNS rebinding)', async () => {
    const res = await raw('/nightly/2026-11-24/report.json', { host: 'evil.example:80' });
    expect(res.status).toBe(421);
    expect((await raw('/', { host: `localhost:${new URL(viewer.url).port}` })).status).toBe(200);
  });
});
