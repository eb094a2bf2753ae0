/** A secret's bytes as base64 text holds them. */
export interface Base64Form {
  text: string;
  /** Characters just before and after `text` (0 or 1 each) made partly of the secret's bits: masked with it. */
  lead: number;
  trail: number;
}

/** Shorter forms are left out: a few characters of base64 occur by chance in a long blob (an image in an answer). */
const SHORTEST = 6;

/**
 * The forms base64 and base64url write a secret's bytes in, alone or inside a larger encoded text (a proxy's page
 * dumping the request headers): a byte has one of 3 places in a 3-byte group, and at each the characters made of the
 * secret's bits only are the same, whatever stands around it. For a secret too short for those, its whole encoding.
 */
export function base64Forms(bytes: Buffer): Base64Form[] {
  const forms: Base64Form[] = [];
  const bits = 8 * bytes.length;
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
    const first = Math.ceil((8 * offset) / 6); // the first character of its bits only
    const end = Math.floor((8 * offset + bits) / 6);
    const edges = { lead: 6 * first > 8 * offset ? 1 : 0, trail: 6 * end < 8 * offset + bits ? 1 : 0 };
    for (const encoding of ['base64', 'base64url'] as const) {
      const text = padded.toString(encoding).slice(first, end);
      if (text.length >= SHORTEST) forms.push({ text, ...edges });
    }
  }
  if (forms.length === 0) for (const encoding of ['base64', 'base64url'] as const) forms.push({ text: bytes.toString(encoding), lead: 0, trail: 0 });
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

const BASE64_CHAR = /^[A-Za-z0-9+/_-]$/;

/** A span of a base64 form, grown over the characters around it that the secret's bits are part of, and the padding after. */
export function reach(text: string, span: { start: number; end: number }, form: { lead: number; trail: number }): { start: number; end: number } {
  const start = form.lead > 0 && span.start > 0 && BASE64_CHAR.test(text[span.start - 1]!) ? span.start - 1 : span.start;
  let end = form.trail > 0 && span.end < text.length && BASE64_CHAR.test(text[span.end]!) ? span.end + 1 : span.end;
  for (let pad = 0; end > span.end && pad < 2 && text[end] === '='; pad++) end++;
  return { start, end };
}
