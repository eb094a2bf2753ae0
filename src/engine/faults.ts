import { ConfigError } from '../errors.js';
import { mulberry32 } from '../util/random.js';

/** Latency added before each answer: fixed, or log-normal with the given median and p99 (ms). */
export interface Latency {
  median: number;
  p99?: number;
}

/** Faults injected into answer requests; all off by default. Rates are shares of requests, 0-1. */
export interface FaultOptions {
  latency?: Latency;
  /** 500, 502 or 503 with a JSON error body. */
  errorRate?: number;
  /** 200 with a body that is not valid JSON. */
  malformedRate?: number;
  /** The socket is destroyed without a response. */
  resetRate?: number;
  /** 429 with a Retry-After header. */
  throttleRate?: number;
  /** Retry-After value in seconds. @default 1 */
  retryAfter?: number;
  /** 200 with a valid JSON body of several MiB. */
  oversizeRate?: number;
}

export type Fault =
  | { kind: 'none' }
  | { kind: 'error'; status: 500 | 502 | 503 }
  | { kind: 'malformed' }
  | { kind: 'reset' }
  | { kind: 'throttle'; retryAfter: number }
  | { kind: 'oversize' };

export interface FaultPlan {
  delayMs: number;
  fault: Fault;
}

export { mulberry32 };

const Z99 = 2.3263478740408408; // standard normal quantile at 0.99

/** Parses `--latency 50` (fixed) or `--latency 50,200` (median, p99). */
export function parseLatency(text: string): Latency {
  const parts = text.split(',').map((p) => Number(p.trim()));
  const [median, p99] = parts;
  if (parts.length > 2 || median === undefined || !Number.isFinite(median) || median < 0 || (p99 !== undefined && !(p99 >= median))) {
    throw new ConfigError(`--latency "${text}": expected milliseconds, fixed ("50") or median,p99 ("50,200") with p99 >= median`);
  }
  return p99 === undefined ? { median } : { median, p99 };
}

const RATES = ['errorRate', 'malformedRate', 'resetRate', 'throttleRate', 'oversizeRate'] as const;

/** Throws a ConfigError when a rate is outside 0-1 or the rates add up to more than 1. */
export function checkFaults(options: FaultOptions): void {
  let total = 0;
  for (const key of RATES) {
    const rate = options[key] ?? 0;
    if (!(rate >= 0 && rate <= 1)) throw new ConfigError(`${key} ${rate}: expected a share between 0 and 1, e.g. 0.05`);
    total += rate;
  }
  if (total > 1 + 1e-9) throw new ConfigError(`the fault rates add up to ${total.toFixed(3)}: at most 1`);
}

/** The planner forgets every key once it holds this many (see createFaultPlanner). */
export const MAX_PLANNED_KEYS = 100_000;

const utf8 = new TextEncoder();

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of utf8.encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Decides what happens to one answer request; `key` is the question text. */
export type FaultPlanner = (key: string) => FaultPlan;

/**
 * Seeded fault decisions per question and attempt: the n-th request (from 0) for `key` draws from
 * mulberry32 seeded with FNV-1a 32 of `${seed}\0${n}\0${key}`. The same seed and questions give the
 * same faults per question and attempt whatever the concurrency or arrival order, and again after a
 * restart (a fresh planner counts from 0). The per-key counter is bounded: once it holds
 * MAX_PLANNED_KEYS keys it is cleared, so a question asked again after that starts over at n = 0.
 */
export function createFaultPlanner(options: FaultOptions = {}, seed = 1): FaultPlanner {
  checkFaults(options);
  const { latency } = options;
  const sigma = latency?.p99 !== undefined && latency.median > 0 ? Math.log(latency.p99 / latency.median) / Z99 : 0;
  const retryAfter = options.retryAfter ?? 1;
  const counts = new Map<string, number>();
  return (key) => {
    let n = counts.get(key);
    if (n === undefined) {
      if (counts.size >= MAX_PLANNED_KEYS) counts.clear();
      n = 0;
    }
    counts.set(key, n + 1);
    const random = mulberry32(fnv1a32(`${seed}\u0000${n}\u0000${key}`));
    // a fixed order of draws: the fault does not depend on the latency options, nor the delay on the fault
    let draw = random();
    const detail = random();
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const delayMs = !latency ? 0 : sigma === 0 ? latency.median : latency.median * Math.exp(sigma * normal);
    for (const rate of RATES) {
      const share = options[rate] ?? 0;
      if (draw < share) return { delayMs, fault: faultOf(rate, detail, retryAfter) };
      draw -= share;
    }
    return { delayMs, fault: { kind: 'none' } };
  };
}

/** `detail`: a uniform draw in [0, 1) that picks the status of an error. */
function faultOf(key: (typeof RATES)[number], detail: number, retryAfter: number): Fault {
  switch (key) {
    case 'errorRate':
      return { kind: 'error', status: ([500, 502, 503] as const)[Math.floor(detail * 3)] ?? 500 };
    case 'malformedRate':
      return { kind: 'malformed' };
    case 'resetRate':
      return { kind: 'reset' };
    case 'throttleRate':
      return { kind: 'throttle', retryAfter };
    case 'oversizeRate':
      return { kind: 'oversize' };
  }
}

/** Size of the oversized body. */
export const OVERSIZE_BYTES = 4 * 1024 * 1024;

/** A body that looks like an answer but is not JSON, in the manner of the spec's sample (missing commas, cut off). */
export function malformedBody(validJson: string): string {
  return validJson.replace(/","/g, '"\n"').slice(0, Math.max(10, Math.floor(validJson.length * 0.8)));
}
