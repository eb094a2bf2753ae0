// Building the page: every node is made with textContent, never innerHTML, so no string from the data is markup.

/** An element with its text (as text) and class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

/** The element of this id: the page's HTML (rendered on the Node side) holds every one the code asks for. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Appends an option to a select. */
export function addOption(select: HTMLSelectElement, value: string, label: string): void {
  const o = el('option', label);
  o.value = value;
  select.append(o);
}

/** A fact as the detail views show it: `<div><span class="k">key</span><span class="v">value</span></div>`. */
export function fact(key: string, value: string | Node, cls = ''): HTMLDivElement {
  const p = el('div', null, cls);
  p.append(el('span', key, 'k'), typeof value === 'string' ? el('span', value, 'v') : value);
  return p;
}

/** Calls `then` with the input's text once the reader pauses typing for `ms`. */
export function onTyped(input: HTMLInputElement, ms: number, then: (text: string) => void): void {
  let timer: number | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => then(input.value), ms);
  });
}

/** A click (and Enter, on an element that is not a link) anywhere in the page on an element matching `selector`. */
export function onLink(selector: string, go: (link: HTMLElement, e: Event) => void, { enter = false } = {}): void {
  const linkOf = (e: Event) => (e.target as Element).closest<HTMLElement>(selector);
  document.addEventListener('click', (e) => {
    const link = linkOf(e);
    if (!link) return;
    e.preventDefault();
    go(link, e);
  });
  if (!enter) return;
  document.addEventListener('keydown', (e) => {
    const link = linkOf(e);
    if (link && e.key === 'Enter' && link.tagName !== 'A') go(link, e);
  });
}

/** Tells whoever waits (the tests, the benchmarks) that the page is drawn: `body[data-ready]`, and when. */
export function markReady(): void {
  (window as unknown as { __firstRenderMs: number }).__firstRenderMs = performance.now();
  document.body.dataset['ready'] = 'true';
}
