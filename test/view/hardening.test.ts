import { spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { startViewer, type Viewer } from '../../src/view/server.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// What `answer-eval view` must refuse however it is asked: a foreign Host (DNS rebinding), a foreign Origin, a body,
// a link to a hidden file or out of DIR (also one swapped while it is served); and what it must serve safely: every
// file in a sandbox, the index with a strict policy.

const dir = tempDir('answer-eval-view-hard-');
const root = join(dir, 'reports');
let viewer: Viewer;
let port: number;

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw request: headers as written (fetch sets Host and Origin itself). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('no reply in 5 s')));
    req.end(body);
  });
}

/** A request written byte for byte on a socket: e.g. HTTP/1.0 without a Host header. The status code. */
function rawSocket(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let reply = '';
    socket.on('data', (d: Buffer) => (reply += d.toString()));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.\d (\d{3})/.exec(reply)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  const run = join(root, 'run1');
  mkdirSync(run, { recursive: true });
  const report = makeReport(10);
  writeFileSync(join(run, 'report.json'), renderString('json', report));
  writeFileSync(join(run, 'report.html'), renderString('html', report));
  writeFileSync(join(run, 'results.csv'), 'id,question\nq1,hello\n');
  writeFileSync(join(root, '.env'), 'TOKEN=hidden-env\n');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[remote] hidden-git\n');
  writeFileSync(join(dir, 'secret.txt'), 'outside-secret\n');
  // links inside DIR to what it hides, by file and by directory
  symlinkSync('../.env', join(run, 'notes.txt'));
  symlinkSync('../.git/config', join(run, 'config.txt'));
  symlinkSync('../.git', join(run, 'git'));
  symlinkSync('report.json', join(run, 'same.json'));
  viewer = await startViewer({ root, host: '127.0.0.1', port: 0 });
  port = Number(new URL(viewer.url).port);
});

afterAll(() => viewer.close());

describe('the Host header names exactly this server (DNS rebinding)', () => {
  it('refuses names that only start like a loopback address, another port, no port, no Host', async () => {
    const refused = [
      '127.evil.example',
      `127.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1.rebind.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `evil.example:${port}`,
      '127.0.0.1',
      'localhost',
      `127.0.0.1:${port + 1}`,
      `127.0.0.1:${port}.evil.example`,
      `localhost.:${port}`,
      `127.0.0.2:${port}`,
      '',
    ];
    for (const host of refused) {
      const res = await raw('/run1/report.json', { host });
      expect(res.status, host).toBe(421);
      expect(res.body, host).not.toContain('schemaVersion');
    }
    expect(await rawSocket('GET /run1/report.json HTTP/1.0\r\n\r\n')).toBe(421);
    expect([400, 421]).toContain(await rawSocket('GET /run1/report.json HTTP/1.1\r\nConnection: close\r\n\r\n'));
  });

  it('answers 127.0.0.1, localhost and [::1] with the port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await raw('/run1/report.json', { host })).status, host).toBe(200);
    }
  });
});

describe('requests of another origin, bodies, methods', () => {
  it('a request with an Origin other than its own is refused; its own passes', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port + 1}`, `https://127.0.0.1:${port}`]) {
      expect((await raw('/run1/results.csv', { origin })).status, origin).toBe(403);
    }
    expect((await raw('/run1/results.csv', { origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('a body is never read: 413; any method but GET and HEAD: 405', async () => {
    expect((await raw('/run1/results.csv', { 'content-type': 'text/plain', 'content-length': '100' }, 'GET', 'x'.repeat(100))).status).toBe(413);
    expect((await raw('/run1/results.csv', {}, 'DELETE')).status).toBe(405);
  });
});

describe('every file is opened, then judged by what it is', () => {
  it('a link inside DIR to .env, .git/config or into .git is refused; a link to a file of DIR is that file', async () => {
    for (const path of ['/run1/notes.txt', '/run1/config.txt', '/run1/git/config', '/.git/config', '/.env']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toMatch(/hidden-(env|git)/);
    }
    expect((await raw('/run1/same.json')).body).toContain('"schemaVersion"');
    expect((await raw('/run1')).status).toBe(404);
  });

  it('a directory swapped for a link out of DIR while it is served never serves what is outside', async () => {
    const swap = join(root, 'swap');
    mkdirSync(join(swap, 'real'), { recursive: true });
    writeFileSync(join(swap, 'real', 'x.txt'), 'inside\n');
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'x.txt'), 'outside-secret\n');
    symlinkSync(join(dir, 'outside'), join(swap, 'link'));
    // swap/d is the real directory, then the link out, then the directory again, as fast as renames go
    const swapper = spawn(process.execPath, ['-e', `
      const { renameSync } = require('node:fs');
      const [, swap] = process.argv;
      const p = (n) => swap + '/' + n;
      renameSync(p('real'), p('d'));
      const end = Date.now() + 20000;
      while (Date.now() < end) {
        renameSync(p('d'), p('real')); renameSync(p('link'), p('d'));
        renameSync(p('d'), p('link')); renameSync(p('real'), p('d'));
      }`, swap], { stdio: 'ignore' });
    try {
      let served = 0;
      let leaked = 0;
      const started = Date.now();
      while (Date.now() - started < 1500) {
        // a connection cut while the file vanishes (between two renames) is no leak
        const replies = await Promise.all(Array.from({ length: 8 }, () => raw('/swap/d/x.txt').catch(() => ({ status: 0, body: '' }))));
        for (const r of replies) {
          if (r.body.includes('outside-secret')) leaked++;
          if (r.status === 200) served++;
        }
      }
      expect(leaked).toBe(0);
      expect(served).toBeGreaterThan(0);
    } finally {
      swapper.kill();
    }
  });
});

describe('pages are sandboxed', () => {
  it('every file served carries a sandbox policy; the index a strict one', async () => {
    for (const path of ['/run1/report.html', '/run1/report.json', '/run1/results.csv']) {
      expect((await raw(path)).headers['content-security-policy'], path).toBe('sandbox allow-scripts');
    }
    const policy = String((await raw('/')).headers['content-security-policy']);
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
  });
});

describe('the index reads a bounded head of each report, once for concurrent visits', () => {
  it('four concurrent first visits of a large minified report.json stay within the memory and time a test sets', async () => {
    const big = join(dir, 'big');
    mkdirSync(join(big, 'run'), { recursive: true });
    const report = makeReport(20);
    report.run.startedAt = '2026-11-27T08:00:00.000Z';
    const one = JSON.stringify(report.results[0]);
    // a minified report: the head first, then 40 MB of results on one line
    const { results: _, ...head } = report;
    const text = `${JSON.stringify(head).slice(0, -1)},"results":[${Array.from({ length: Math.ceil(40e6 / one.length) }, () => one).join(',')}]}`;
    writeFileSync(join(big, 'run', 'report.json'), text);
    expect(text.length).toBeGreaterThan(40e6);
    const bigViewer = await startViewer({ root: big, host: '127.0.0.1', port: 0, maxHeadBytes: 256 * 1024 });
    try {
      const before = process.memoryUsage();
      let peak = 0;
      const sample = setInterval(() => {
        const now = process.memoryUsage();
        peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
      }, 2);
      const started = performance.now();
      const pages = await Promise.all(Array.from({ length: 4 }, () => fetch(bigViewer.url).then((r) => r.text())));
      const took = performance.now() - started;
      clearInterval(sample);
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
      for (const page of pages) {
        expect(page).toContain('<time datetime="2026-11-27T08:00:00.000Z">');
        expect(page).not.toContain('cannot be read');
      }
      expect(peak, `memory grew by ${Math.round(peak / 1e6)} MB`).toBeLessThan(32e6);
      expect(took, `took ${Math.round(took)} ms`).toBeLessThan(1500);
    } finally {
      await bigViewer.close();
    }
  });

  it('a report whose head is beyond the bound is listed with why, not read whole', async () => {
    const far = join(dir, 'far');
    mkdirSync(join(far, 'run'), { recursive: true });
    const report = makeReport(3);
    const { results: _, ...head } = report;
    writeFileSync(join(far, 'run', 'report.json'), JSON.stringify({ ...head, pad: 'x'.repeat(100_000) }));
    const farViewer = await startViewer({ root: far, host: '127.0.0.1', port: 0, maxHeadBytes: 64 * 1024 });
    try {
      expect(await (await fetch(farViewer.url)).text()).toContain('report.json cannot be read: its head (everything before the results) is not within its first 64 KiB, the most the index reads');
    } finally {
      await farViewer.close();
    }
  });
});
