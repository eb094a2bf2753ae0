import * as hdr from 'hdr-histogram-js';
import type { Summary } from '../model/report.js';

/**
 * Latency percentiles recorded one value at a time into an HDR histogram (microsecond resolution, 3 significant
 * digits): memory is the histogram's, whatever the number of values. A percentile is the nearest-rank one (the
 * smallest value with at least p% of the values at or below it), taken in the middle of its histogram bucket, to 4
 * significant digits, and kept within the least and the greatest value recorded, which are exact: within 0.1% of the
 * exact figure, and never outside [min, max]. Call `result()` once.
 */
export class LatencyRecorder {
  private histogram: ReturnType<typeof hdr.build> | undefined;
  private count = 0;
  private min = Infinity;
  private max = 0;

  record(ms: number): void {
    this.histogram ??= hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
    this.count++;
    if (ms > this.max) this.max = ms;
    if (ms < this.min) this.min = ms;
  }

  /** The percentiles, and frees the histogram. */
  result(): Summary['latencyMs'] {
    const histogram = this.histogram;
    if (histogram === undefined || this.count === 0) return { p50: null, p90: null, p99: null, max: null };
    try {
      const at = (p: number): number => {
        const edge = histogram.getValueAtPercentile(p); // the highest value of the bucket the percentile falls in
        const middle = ((histogram as unknown as Buckets).lowestEquivalentValue(edge) + edge) / 2 / 1000;
        return Math.min(this.max, Math.max(this.min, Number(middle.toPrecision(4))));
      };
      return { p50: at(50), p90: at(90), p99: at(99), max: this.max };
    } finally {
      this.dispose();
    }
  }

  dispose(): void {
    this.histogram?.destroy();
    this.histogram = undefined;
  }
}

/** The JavaScript histogram's own bucket arithmetic, which its type declarations leave out. */
interface Buckets {
  lowestEquivalentValue(value: number): number;
}
