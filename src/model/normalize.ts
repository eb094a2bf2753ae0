/** Unicode NFKC, case folding, trimming and whitespace collapse: how answer texts are compared. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}
