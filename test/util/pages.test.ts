import { describe, expect, it } from 'vitest';
import { inPages } from '../../src/util/pages.js';

async function* numbers(n: number, log: string[], failAt?: number): AsyncGenerator<number> {
  try {
    for (let i = 0; i < n; i++) {
      if (i === failAt) throw new Error(`broke at ${i}`);
      log.push(`read ${i}`);
      yield i;
    }
  } finally {
    log.push('closed');
  }
}

const collect = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
};

describe('inPages', () => {
  it('hands on every item in order, a page read ahead at a time', async () => {
    const log: string[] = [];
    const seen: string[] = [];
    for await (const x of inPages(numbers(7, log), 3)) seen.push(`${x} after ${log.filter((l) => l.startsWith('read')).length} read`);
    expect(seen).toEqual(['0 after 3 read', '1 after 3 read', '2 after 3 read', '3 after 6 read', '4 after 6 read', '5 after 6 read', '6 after 7 read']);
    expect(log.at(-1)).toBe('closed');
  });

  it('closes the source when the reader stops early', async () => {
    const log: string[] = [];
    for await (const x of inPages(numbers(100, log), 10)) if (x === 12) break;
    expect(log.filter((l) => l.startsWith('read'))).toHaveLength(20);
    expect(log.at(-1)).toBe('closed');
  });

  it("passes the source's error on; the page being read is not handed on", async () => {
    const log: string[] = [];
    const seen: number[] = [];
    const error = await (async () => {
      for await (const x of inPages(numbers(10, log, 5), 3)) seen.push(x);
    })().catch((e: unknown) => e);
    expect((error as Error).message).toBe('broke at 5');
    expect(seen).toEqual([0, 1, 2]);
  });

  it('an empty source is an empty stream', async () => {
    expect(await collect(inPages(numbers(0, []), 4))).toEqual([]);
  });
});
