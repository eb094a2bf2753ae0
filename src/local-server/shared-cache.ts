/**
 * Values computed once per name and version and shared: a request that comes while the value is being computed
 * waits for the same computation (four first visits read a file once), and a later one takes the value while its
 * version (e.g. a file's size and time) holds. At most `capacity` names are kept (the oldest go first). A computation
 * that fails is forgotten, to be tried again.
 */
export class SharedCache<V> {
  private readonly entries = new Map<string, { version: string; value: Promise<V> }>();
  /** How many computations were started: a test reads it to see that requests shared one. */
  computed = 0;

  constructor(private readonly capacity = 4096) {}

  get(name: string, version: string, compute: () => Promise<V>): Promise<V> {
    const known = this.entries.get(name);
    if (known?.version === version) return known.value;
    this.computed++;
    const value = compute();
    this.entries.delete(name);
    this.entries.set(name, { version, value });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(name)?.value === value) this.entries.delete(name);
    });
    return value;
  }
}
