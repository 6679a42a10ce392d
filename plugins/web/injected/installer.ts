// How the page script is run: the bundle, given its own source text, so that it can install
// itself into a same-origin frame that does not have it yet (frames.ts). Used by the driver for
// every document and by the page script for frames; pure string work.

/** The expression that runs the page script `source` (a bundled IIFE) with its own text at hand. */
export function installerOf(source: string): string {
  return `(function (__flowproofSource) {\n${source}\n})(${JSON.stringify(source)});`;
}
