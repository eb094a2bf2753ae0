/**
 * The items of `source` in the same order, read `size` at a time in one tight loop and then handed on from memory.
 * A source that is a deep chain of streams and generators (a dataset's asking pass) costs far less read in bursts
 * than resumed once per item between other work. Memory: one page.
 */
export async function* inPages<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const page: T[] = [];
      let done = false;
      while (page.length < size) {
        const next = await it.next();
        if (next.done) {
          done = true;
          break;
        }
        page.push(next.value);
      }
      yield* page;
      if (done) return;
    }
  } finally {
    await it.return?.();
  }
}
