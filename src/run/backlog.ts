/**
 * Work that can wait until the event loop has sent what it could: a reply is scored and journaled here, in a batch
 * run by setImmediate (after the loop has handled its I/O), so when many replies arrive together their questions'
 * slots free and the next requests go out first. Bounded: one turn of the loop adds the replies it read.
 */
export class Backlog<T> {
  #items: T[] = [];
  #scheduled = false;

  /** `work` must not throw; what it throws goes to `onError` (the run stops), and the next items are still done. */
  constructor(
    private readonly work: (item: T) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(item: T): void {
    this.#items.push(item);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#turn);
    }
  }

  /** Does everything waiting, now. */
  flush(): void {
    while (this.#items.length > 0) {
      const items = this.#items;
      this.#items = [];
      for (const item of items) {
        try {
          this.work(item);
        } catch (error) {
          this.onError(error);
        }
      }
    }
  }

  readonly #turn = (): void => {
    this.#scheduled = false;
    this.flush();
  };
}
