// The named character references a page may write a secret's characters in: every Latin-1 one of HTML 4 (also
// decoded without their `;`, as browsers do), those of windows-1252's extra characters and common typography, and
// HTML5's names for ASCII punctuation (an encoder may name every character it can).

const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para ' +
  'middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave ' +
  'Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc ' +
  'Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc ' +
  'iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const OTHERS: Record<string, number> = {
  quot: 34, amp: 38, apos: 39, lt: 60, gt: 62, QUOT: 34, AMP: 38, LT: 60, GT: 62, COPY: 169, REG: 174,
  OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, Zcaron: 381, zcaron: 382, fnof: 402, circ: 710, tilde: 732,
  ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207, ndash: 8211, mdash: 8212,
  lsquo: 8216, rsquo: 8217, sbquo: 8218, ldquo: 8220, rdquo: 8221, bdquo: 8222, dagger: 8224, Dagger: 8225, bull: 8226,
  hellip: 8230, permil: 8240, prime: 8242, Prime: 8243, lsaquo: 8249, rsaquo: 8250, oline: 8254, frasl: 8260, euro: 8364,
  trade: 8482,
  Tab: 9, NewLine: 10, excl: 33, num: 35, dollar: 36, percnt: 37, lpar: 40, rpar: 41, ast: 42, midast: 42, plus: 43,
  comma: 44, period: 46, sol: 47, colon: 58, semi: 59, equals: 61, quest: 63, commat: 64, lsqb: 91, lbrack: 91,
  bsol: 92, rsqb: 93, rbrack: 93, Hat: 94, lowbar: 95, UnderBar: 95, grave: 96, DiacriticalGrave: 96, lcub: 123,
  lbrace: 123, verbar: 124, vert: 124, VerticalLine: 124, rcub: 125, rbrace: 125,
};

const latin1Names = LATIN1.split(' ');

/** Every named reference this module decodes, by name (without `&` and `;`). */
export const NAMED: ReadonlyMap<string, string> = new Map([
  ...latin1Names.map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...Object.entries(OTHERS).map(([name, cp]): [string, string] => [name, String.fromCharCode(cp)]),
]);

/** The names a browser decodes without their `;` (HTML's legacy list): the Latin-1 ones and the markup ones. */
export const LEGACY: ReadonlySet<string> = new Set([...latin1Names, 'quot', 'amp', 'lt', 'gt', 'QUOT', 'AMP', 'LT', 'GT', 'COPY', 'REG']);

/** The longest name of either table: a longer run of letters after `&` is read no further. */
export const LONGEST_NAME = Math.max(...[...NAMED.keys()].map((n) => n.length));
