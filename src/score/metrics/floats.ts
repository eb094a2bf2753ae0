/** A growable list of numbers in a Float64Array: 8 bytes a value, for the metrics that need every value. */
export class FloatList {
  private data = new Float64Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** The values sorted ascending (in place: the list's order is not kept). */
  sorted(): Float64Array {
    return this.data.subarray(0, this.length).sort();
  }

  values(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}
