/** The page data: JSON, gzip-compressed and base64-encoded into `<script id="page-data">` on the Node side. */
export async function readPageData<T>(): Promise<T> {
  const text = (document.getElementById('page-data')?.textContent ?? '').trim();
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text()) as T;
}

/**
 * Unpacks the page data and starts the page with it; `status` says what goes on, or what went wrong: a browser
 * without DecompressionStream, data that does not unpack. `page` names the file in those messages.
 */
export function withPageData<T>(status: HTMLElement, loading: string, page: string, start: (data: T) => void): void {
  if (typeof DecompressionStream === 'undefined') {
    status.textContent = `This browser cannot unpack the embedded data (no DecompressionStream); open the ${page} in a current browser.`;
    return;
  }
  status.textContent = loading;
  readPageData<T>().then(start, (error: unknown) => { status.textContent = `Could not read the embedded data: ${String(error)}`; });
}

/**
 * A score as the service wrote it (`59.5`, `0.8125`), not padded to a fixed number of decimals (`59.500`); `—` for a
 * reply that has no scores (asked with `--output text`).
 */
export function scoreText(score: number, scored = true): string {
  return scored ? String(Number(score.toPrecision(6))) : '—';
}
