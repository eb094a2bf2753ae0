import { addOption } from './dom.js';

/** A list shown a page at a time: its prev and next buttons, and a select of page sizes if given one. */
export class Pager {
  /** The page shown, from 0. */
  page = 0;

  constructor(
    public size: number,
    private readonly prev: HTMLButtonElement,
    private readonly next: HTMLButtonElement,
    turned: () => void,
  ) {
    prev.addEventListener('click', () => { this.page--; turned(); });
    next.addEventListener('click', () => { this.page++; turned(); });
  }

  /** The page of `list` to show (past the last page: the last), where it starts and how many pages; sets the buttons. */
  slice<T>(list: readonly T[]): { items: T[]; from: number; pages: number } {
    const pages = Math.max(1, Math.ceil(list.length / this.size));
    this.page = Math.min(this.page, pages - 1);
    const from = this.page * this.size;
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
    return { items: list.slice(from, from + this.size), from, pages };
  }

  /** Offers these page sizes in `select` ("50 per page"); a choice calls `changed`. */
  sizes(select: HTMLSelectElement, sizes: readonly number[], changed: () => void): void {
    for (const s of sizes) addOption(select, String(s), `${s} per page`);
    select.value = String(this.size);
    select.addEventListener('change', () => {
      this.size = Number(select.value);
      changed();
    });
  }
}
