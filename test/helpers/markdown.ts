// What GitHub makes of a Markdown file, as far as links go: its headings' anchors and the links it holds.

/** A link or image of a Markdown file: its target as written and the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The file's lines with fenced code blocks blanked (their text is no link and no heading); line numbers kept. */
function outsideCode(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (open === undefined) return line;
      fence = open;
      return '';
    }
    if (open !== undefined && open[0] === fence[0] && open.length >= fence.length && line.trim() === open) fence = undefined;
    return '';
  });
}

/** A line without its code spans (`` `a` ``, ``` `` a`b `` ```). */
const withoutCodeSpans = (line: string): string => line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ' ');

/**
 * GitHub's anchor for a heading (github-slugger): its text as rendered, lower case, every character that is not a
 * letter, a mark, a digit, `_`, `-` or a space dropped, each space turned into `-` (two spaces: two dashes).
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]*>/g, ''); // an HTML tag
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a link may name in the file: its headings' (a repeated one gets -1, -2...), and `<a id>` / `<a name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const occurrences = new Map<string, number>(); // as github-slugger counts them
  for (const line of outsideCode(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      let anchor = slug;
      while (occurrences.has(anchor)) {
        occurrences.set(slug, occurrences.get(slug)! + 1);
        anchor = `${slug}-${occurrences.get(slug)!}`;
      }
      occurrences.set(anchor, 0);
      anchors.add(anchor);
    }
    for (const m of withoutCodeSpans(line).matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Every link and image of the file outside code: `[text](target)`, `![alt](target)`, `[ref]: target`, `<a href>`, `<img src>`. */
export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  outsideCode(markdown).forEach((raw, i) => {
    const line = withoutCodeSpans(raw);
    const found = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/<(?:a|img)\s[^>]*\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of found) links.push({ target, line: i + 1 });
  });
  return links;
}
