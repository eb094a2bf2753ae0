/**
 * The top-1 scores of a run's results, one list for every metric that needs each value (the score distributions and
 * the threshold analysis), each score with a mark (a byte) saying which of their lists it belongs to. Sized once from
 * the number of results (8 + 1 bytes a result), it never doubles: each list is then taken at its exact size, sorted.
 */
export class ScoreTable {
  private scores: Float64Array;
  private marks: Uint8Array;
  length = 0;

  /** `capacity`: the results there are, when known (the list grows by doubling past it). */
  constructor(capacity = 64) {
    this.scores = new Float64Array(Math.max(1, capacity));
    this.marks = new Uint8Array(this.scores.length);
  }

  push(score: number, mark: number): void {
    if (this.length === this.scores.length) {
      const scores = new Float64Array(this.length * 2);
      scores.set(this.scores);
      const marks = new Uint8Array(this.length * 2);
      marks.set(this.marks);
      this.scores = scores;
      this.marks = marks;
    }
    this.scores[this.length] = score;
    this.marks[this.length++] = mark;
  }

  /**
   * The scores of each value of `mark & mask`, sorted ascending, each in an array of its exact size: lists[v] holds
   * the scores whose `mark & mask` is v (lists[0]: those outside every list of the mask, left empty).
   */
  split(mask: number): Float64Array[] {
    const counts = new Uint32Array(mask + 1);
    for (let i = 0; i < this.length; i++) counts[this.marks[i]! & mask]!++;
    counts[0] = 0;
    const lists = Array.from(counts, (n) => new Float64Array(n));
    const filled = new Uint32Array(mask + 1);
    for (let i = 0; i < this.length; i++) {
      const v = this.marks[i]! & mask;
      if (v !== 0) lists[v]![filled[v]!++] = this.scores[i]!;
    }
    for (const list of lists) list.sort();
    return lists;
  }
}
