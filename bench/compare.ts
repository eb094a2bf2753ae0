// (e) `answer-eval compare` of two 1M-question runs: time and peak RSS of the whole process.
// (f) compare.html for two 100k-question runs: time to write it, its size, time to the first table page in Chromium.
// The runs are generated as report.json files directly (bench/lib/runs.ts), no requests.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeComparePair } from './lib/runs.js';
import { ChangeList, COMPARE_FORMATS, compareData, openPair } from './lib/package.js';
import { runProcess } from './lib/proc.js';
import { CLI } from './paths.js';

export interface CompareResult {
  questions: number;
  /** Both report.json files. */
  inputMb: number;
  seconds: number;
  peakRssMb: number;
  counts: Record<string, number>;
  /** compare.json and changes.jsonl as written. */
  compareJsonMb: number;
  changesMb: number;
}

export async function benchCompare(tmp: string, questions = 1_000_000): Promise<CompareResult> {
  const dir = join(tmp, `compare-${questions}`);
  try {
    const { base, head, mb } = await writeComparePair(dir, questions);
    const out = join(dir, 'out');
    const started = performance.now();
    const res = await runProcess(process.execPath, [CLI, 'compare', base, head, '-o', out], { measureRss: true, timeoutMs: 3_600_000 });
    const seconds = (performance.now() - started) / 1000;
    if (res.code !== 0 || res.peakRssMb === undefined) throw new Error(`compare failed (${res.code}): ${res.stderr.slice(0, 500)}`);
    const c = JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as { counts: Record<string, number> };
    const size = (f: string) => statSync(join(out, f)).size / 1024 / 1024;
    return { questions, inputMb: mb, seconds, peakRssMb: res.peakRssMb, counts: c.counts, compareJsonMb: size('compare.json'), changesMb: size('changes.jsonl') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CompareHtmlResult {
  questions: number;
  /** Changes listed (changes.jsonl lines), and rows the page holds. */
  changes: number;
  renderSeconds: number;
  sizeMb: number;
  /** From navigation to the first page of the table drawn (the page's own clock), in Chromium. */
  firstPageSeconds: number;
}

export async function benchCompareHtml(tmp: string, questions = 100_000): Promise<CompareHtmlResult> {
  const dir = join(tmp, `compare-html-${questions}`);
  try {
    // every question of HEAD moves its score or changes class: every one is listed (the heaviest page)
    const { base, head } = await writeComparePair(dir, questions, 1);
    const pair = await openPair(base, head, false);
    const changes = new ChangeList();
    const c = compareData(pair.base, pair.head, { files: { base, head } }, changes);
    const { render } = COMPARE_FORMATS.html;
    const few = new ChangeList();
    for (const line of changes.lines.slice(0, 100)) few.add(line);
    for (const _ of render(c, few)); // warm-up
    const started = performance.now();
    const html = [...render(c, changes)].join('');
    const renderSeconds = (performance.now() - started) / 1000;
    const file = join(dir, 'compare.html');
    writeFileSync(file, html);
    const bytes = Buffer.byteLength(html);
    const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
      const firstPageMs = await page.evaluate(() => (globalThis as unknown as { __firstRenderMs: number }).__firstRenderMs);
      return { questions, changes: changes.count, renderSeconds, sizeMb: bytes / 1024 / 1024, firstPageSeconds: firstPageMs / 1000 };
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
