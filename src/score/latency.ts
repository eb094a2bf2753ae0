import * as hdr from 'hdr-histogram-js';
import type { Summary } from '../model/report.js';

/**
 * Latency percentiles recorded one value at a time into an HDR histogram (microsecond resolution,
 * 3 significant digits): memory is the histogram's, whatever the number of values. Call `result()` once.
 */
export class LatencyRecorder {
  private histogram: ReturnType<typeof hdr.build> | undefined;
  private count = 0;
  private max = 0;

  record(ms: number): void {
    this.histogram ??= hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
    this.histogram.recordValue(Math.max(1, Math.round(ms * 1000)));
    this.count++;
    if (ms > this.max) this.max = ms;
  }

  /** The percentiles, and frees the histogram. */
  result(): Summary['latencyMs'] {
    const histogram = this.histogram;
    if (histogram === undefined || this.count === 0) return { p50: null, p90: null, p99: null, max: null };
    try {
      // the histogram keeps 3 significant digits; say no more than that
      const at = (p: number) => Number((histogram.getValueAtPercentile(p) / 1000).toPrecision(3));
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
