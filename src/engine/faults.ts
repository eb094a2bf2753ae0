import { ConfigError } from '../errors.js';

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

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** A seeded sequence of fault decisions, one per answer request: the same seed gives the same run. */
export function createFaultPlanner(options: FaultOptions = {}, seed = 1): () => FaultPlan {
  checkFaults(options);
  const random = mulberry32(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const { latency } = options;
  const sigma = latency?.p99 !== undefined && latency.median > 0 ? Math.log(latency.p99 / latency.median) / Z99 : 0;
  return () => {
    const delayMs = !latency ? 0 : sigma === 0 ? latency.median : latency.median * Math.exp(sigma * normal());
    let draw = random();
    for (const key of RATES) {
      const rate = options[key] ?? 0;
      if (draw < rate) return { delayMs, fault: faultOf(key, random, options.retryAfter ?? 1) };
      draw -= rate;
    }
    return { delayMs, fault: { kind: 'none' } };
  };
}

function faultOf(key: (typeof RATES)[number], random: () => number, retryAfter: number): Fault {
  switch (key) {
    case 'errorRate':
      return { kind: 'error', status: ([500, 502, 503] as const)[Math.floor(random() * 3)] ?? 500 };
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
