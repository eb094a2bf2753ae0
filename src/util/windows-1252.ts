/** 0x80-0x9F in windows-1252 (the WHATWG table; latin1 and iso-8859-1 are its labels too); the rest is Latin-1. */
export const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/**
 * windows-1252 by hand: Node 20's TextDecoder drops or mistranslates 0x80-0x9F (nodejs/node#56542, #60888).
 */
export function windows1252(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  return /[\x80-\x9f]/.test(text) ? text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}

/** `text` in windows-1252 bytes; undefined when it holds a character that encoding lacks. */
export function toWindows1252(text: string): Buffer | undefined {
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 || (c >= 0xa0 && c <= 0xff)) {
      bytes[i] = c;
      continue;
    }
    const high = CP1252_HIGH.indexOf(text[i]!);
    if (high < 0) return undefined;
    bytes[i] = 0x80 + high;
  }
  return bytes;
}
