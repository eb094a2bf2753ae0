// npm run bench: every figure of BENCHMARKS.md, measured side by side in one run, on loopback only.
//   npm run bench -- [--only a,b,c,d,e,f,g,h,i,j] [--sizes 10000,100000,1000000] [--seconds 8] [--compare-questions 1000000]
//                    [--compare-html-questions 100000] [--trend-runs 30] [--trend-questions 100000] [--sample-lines 1000000]
// (e, compare of two 1M-question runs, f, compare.html, and g, trend over many runs, are not in the default set: they
// write 3.7 GB, 0.4 GB and 2.9 GB of reports.) Figures measured are merged into bench/results.json, so measuring one
// keeps the others; each figure past a-d carries its own machine, date and load.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCompare, benchCompareHtml, type CompareHtmlResult, type CompareResult } from './compare.js';
import { benchHtml, type HtmlResult } from './html.js';
import { benchLatency, type LatencyResult } from './latency.js';
import { benchStartup, type StartupResult } from './startup.js';
import { benchMemory, type MemoryResult } from './memory.js';
import { ROOT } from './paths.js';
import { benchThroughput, type ThroughputResult } from './throughput.js';
import { benchSample, type SampleResult } from './sample.js';
import { benchThrottle, type ThrottleResult } from './throttle.js';
import { benchTrend, type TrendResult } from './trend.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'a,b,c,d,h,i,j' },
    sizes: { type: 'string', default: '10000,100000,1000000' },
    seconds: { type: 'string', default: '8' },
    formats: { type: 'string', default: 'all' },
    'compare-questions': { type: 'string', default: '1000000' },
    'compare-html-questions': { type: 'string', default: '100000' },
    'trend-runs': { type: 'string', default: '30' },
    'trend-questions': { type: 'string', default: '100000' },
    'sample-lines': { type: 'string', default: '1000000' },
  },
});
const only = new Set(values.only.split(','));
const sizes = values.sizes.split(',').map(Number);
const seconds = Number(values.seconds);
const tmp = mkdtempSync(join(tmpdir(), 'answer-eval-bench-'));

const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform };
/** A figure measured on its own, with the machine, when and the load average it was measured under. */
type Alone<T> = T & { machine: typeof machine; date: string; load: number[] };
type Results = {
  machine: typeof machine;
  date: string;
  throughput?: ThroughputResult;
  latency?: LatencyResult;
  memory?: MemoryResult[];
  html?: HtmlResult;
  compare?: Alone<CompareResult>;
  compareHtml?: Alone<CompareHtmlResult>;
  trend?: Alone<TrendResult>;
  throttle?: Alone<ThrottleResult>;
  startup?: Alone<StartupResult>;
  sample?: Alone<SampleResult>;
};
const resultsFile = join(ROOT, 'bench', 'results.json');
const results: Results = { machine, date: new Date().toISOString() };
const rows: [string, string, string, string][] = [];
const f = (n: number, digits = 2) => n.toFixed(digits);

try {
  if (only.has('a')) {
    const r = (results.throughput = await benchThroughput(tmp, seconds));
    rows.push(['a throughput vs autocannon (c=64)', `${f(r.answerEvalQps, 0)} q/s vs ${f(r.autocannonRps, 0)} req/s`, `ratio ${f(r.ratio)}`, r.ratio >= 0.8 ? 'met (>= 0.8)' : 'NOT met (>= 0.8)']);
    rows.push(['  peer: bare undici loop (c=64)', `${f(r.undiciRps, 0)} req/s`, `ratio ${f(r.undiciRatio)}`, 'the HTTP client alone']);
    rows.push(['  answer-eval vs the bare undici loop', `${f(r.answerEvalQps, 0)} vs ${f(r.undiciRps, 0)}`, `ratio ${f(r.ofUndici)}`, r.ofUndici >= 0.85 ? 'met (>= 0.85, issue 40)' : 'NOT met (>= 0.85, issue 40)']);
    rows.push(['  ratio in each round (median above)', r.ofUndiciRounds.map((x) => f(x)).join(', '), '', '']);
  }
  if (only.has('b')) {
    const r = (results.latency = await benchLatency(tmp));
    const pct = (x: number) => `${f(x * 100, 1)}%`;
    rows.push([`b efficiency at 50 ms latency (c=64, ${r.seconds} s runs)`, `${f(r.achievedQps, 0)} q/s of ${f(r.ceilingQps, 0)}`, pct(r.efficiency), r.efficiency >= 0.98 ? 'met (>= 98%, issue 40)' : 'NOT met (>= 98%, issue 40)']);
    rows.push(['  rounds; peer: bare undici loop, same engine', r.rounds.map(pct).join(', '), `peer ${pct(r.peerEfficiency)}`, 'what the engine and machine allow']);
  }
  if (only.has('c') || only.has('d')) {
    const memory = (results.memory = await benchMemory(tmp, sizes, values.formats));
    for (const m of memory) rows.push([`c peak RSS, ${m.questions.toLocaleString('en')} questions`, `${f(m.peakRssMb, 0)} MB`, `${f(m.seconds, 1)} s`, m.questions >= 1_000_000 ? (m.peakRssMb <= 250 ? 'met (<= 250 MB, issue 40)' : 'NOT met (<= 250 MB, issue 40)') : '']);
    const at100k = memory.find((m) => m.questions === 100_000);
    if (only.has('d') && at100k) {
      const r = (results.html = benchHtml(join(tmp, 'memory-100000', 'report.json')));
      rows.push(['d report.html for 100k results', `${f(r.renderSeconds)} s`, `${f(r.sizeMb, 1)} MB`, r.renderSeconds < 5 && r.sizeMb < 25 ? 'met (< 5 s, < 25 MB)' : 'NOT met (< 5 s, < 25 MB)']);
    }
  }
  const alone = <T>(r: T, load: number[]): Alone<T> => ({ ...r, machine, date: new Date().toISOString(), load });
  if (only.has('e')) {
    const load = loadavg();
    const r = await benchCompare(tmp, Number(values['compare-questions']));
    results.compare = alone(r, load);
    rows.push([`e compare, 2 runs x ${r.questions.toLocaleString('en')} questions (${f(r.inputMb, 0)} MB of report.json)`, `${f(r.seconds, 1)} s`, `${f(r.peakRssMb, 0)} MB peak RSS`, r.peakRssMb < 300 ? 'met (< 300 MB)' : 'NOT met (< 300 MB)']);
  }
  if (only.has('f')) {
    const load = loadavg();
    const r = await benchCompareHtml(tmp, Number(values['compare-html-questions']));
    results.compareHtml = alone(r, load);
    const met = r.firstPageSeconds < 3 && r.sizeMb < 10;
    rows.push([`f compare.html, ${r.questions.toLocaleString('en')} questions (${r.changes.toLocaleString('en')} changes)`, `written in ${f(r.renderSeconds)} s, ${f(r.sizeMb, 1)} MB`, `first page in ${f(r.firstPageSeconds)} s`, met ? 'met (< 3 s, < 10 MB)' : 'NOT met (< 3 s, < 10 MB)']);
  }
  if (only.has('h')) {
    const load = loadavg();
    const r = await benchThrottle(tmp, seconds);
    results.throttle = alone(r, load);
    rows.push(['h throughput with 0.5% 429s (Retry-After 1 s)', `${f(r.longQps, 0)} vs ${f(r.freeQps, 0)} q/s`, `ratio ${f(r.longRatio)}`, r.longRatio >= 0.85 ? 'met (>= 0.85)' : 'NOT met (>= 0.85)']);
    rows.push(['  same, Retry-After 0.05 s', `${f(r.shortQps, 0)} q/s`, `ratio ${f(r.shortRatio)}`, r.shortRatio >= 0.85 ? 'met (>= 0.85)' : 'NOT met (>= 0.85)']);
    rows.push(['  same, Retry-After 1 s, --pause-on-429', `${f(r.pausedQps, 0)} q/s`, `ratio ${f(r.pausedRatio)} (the pauses alone: ~${f(r.pausedBound)})`, 'every 429 pauses the whole run']);
  }
  if (only.has('i')) {
    const load = loadavg();
    const r = benchStartup(11);
    results.startup = alone(r, load);
    const row = (name: string, target?: number) =>
      rows.push([`  ${name}`, `${f(r.ms[name]!, 0)} ms`, `${f(r.ratio[name]!)}x node -e 0`, target === undefined ? '' : r.ratio[name]! <= target ? `met (<= ${target}x)` : `NOT met (<= ${target}x)`]);
    rows.push([`i start-up, medians of ${r.rounds} alternated rounds`, `node -e 0: ${f(r.ms['node -e 0']!, 0)} ms`, '', '']);
    row('answer-eval --version', 2.5);
    row('answer-eval validate (113 questions)', 3);
    row('answer-eval --help');
    row('vitest --version');
    row('tsc --version');
  }
  if (only.has('g')) {
    const load = loadavg();
    const r = await benchTrend(tmp, Number(values['trend-runs']), Number(values['trend-questions']));
    results.trend = alone(r, load);
    rows.push([`g trend, ${r.runs} runs x ${r.questions.toLocaleString('en')} questions (${f(r.inputMb, 0)} MB of report.json)`, `${f(r.seconds, 1)} s`, `${f(r.peakRssMb, 0)} MB peak RSS`, `10 runs: ${f(r.tenRuns.seconds, 1)} s, ${f(r.tenRuns.peakRssMb, 0)} MB`]);
  }
  if (only.has('j')) {
    const load = loadavg();
    const r = await benchSample(tmp, Number(values['sample-lines']));
    results.sample = alone(r, load);
    const met = r.peakRssMb < 300 && Object.values(r.checks).every(Boolean);
    const failed = Object.entries(r.checks).filter(([, ok]) => !ok).map(([name]) => name);
    rows.push([`j sample of a ${r.lines.toLocaleString('en')}-line log (${f(r.logMb, 0)} MB; ${r.distinct.toLocaleString('en')} distinct, ${r.groups.toLocaleString('en')} groups)`, `${f(r.seconds, 1)} s`, `${f(r.peakRssMb, 0)} MB peak RSS`, met ? 'met (< 300 MB; near-repeats folded, PII scrubbed, same seed same bytes)' : `NOT met (< 300 MB${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''})`]);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const widths = [0, 1, 2, 3].map((i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GiB, Node ${machine.node}`);
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
// figures not measured this time are kept from the last run that measured them
const earlier = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Results) : {};
// (the top-level machine and date are those of a-d; the other figures carry their own)
const aloneOnly = !['a', 'b', 'c', 'd'].some((k) => only.has(k));
const measured = Object.fromEntries(Object.entries(results).filter(([k, v]) => v !== undefined && !(aloneOnly && (k === 'machine' || k === 'date'))));
writeFileSync(resultsFile, `${JSON.stringify({ ...earlier, ...measured }, null, 2)}\n`);
console.log('written: bench/results.json');
