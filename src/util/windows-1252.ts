/** 0x80-0x9F in windows-1252 (the WHATWG table; latin1 and iso-8859-1 are its labels too); the rest is Latin-1. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

/**
 * windows-1252 by hand: Node 20's TextDecoder drops or mistranslates 0x80-0x9F (nodejs/node#56542, #60888).
 */
export function windows1252(bytes: Buffer): string {
  const text = bytes.toString('latin1');
  return /[\x80-\x9f]/.test(text) ? text.replace(/[\x80-\x9f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
}
