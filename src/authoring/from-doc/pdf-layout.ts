// Rebuilds a PDF's text into document blocks: its lines, and any test-step table found among
// them. A PDF keeps no table structure, only positioned text runs, so a table is found by its
// header (shapes.ts) and its columns by the vertical gutters no run crosses. Pure: no I/O.
import type { DocBlock } from "./segment.ts";
import { readHeader } from "./shapes.ts";

/** A text run as the PDF places it: `x`/`y` in PDF points (origin bottom-left), `page` 1-based. */
export interface PdfTextItem {
  readonly page: number;
  readonly str: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

interface Run {
  readonly text: string;
  readonly x0: number;
  readonly x1: number;
  readonly y: number;
  readonly h: number;
}

interface Line {
  readonly page: number;
  readonly y: number;
  readonly runs: readonly Run[];
}

/** Runs on one line differ in height by at most this fraction of their height. */
const SAME_LINE = 0.3;
/** A header wrapped over several lines spans at most this many lines… */
const HEADER_MAX_LINES = 3;
/** …within this many run heights of its first line. */
const HEADER_BAND = 1.7;
/** A vertical step larger than this many run heights between two lines starts a new table row. */
const ROW_GAP = 1.3;
/** Runs closer than this many heights belong to one header cell. */
const CELL_GAP = 0.6;

/** The lines of the PDF as one `lines` block, preceded by every test-step table found. */
export function layoutPdf(items: readonly PdfTextItem[]): DocBlock[] {
  const lines = toLines(items);
  const tables: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const found = tableAt(lines, i);
    if (!found) continue;
    tables.push({ kind: "table", rows: found.rows });
    i = found.end - 1;
  }
  return [
    ...tables,
    {
      kind: "lines",
      lines: lines.map((l) =>
        l.runs
          .map((r) => r.text)
          .join(" ")
          .replace(/\s+/g, " ")
          .trim(),
      ),
    },
  ];
}

function toLines(items: readonly PdfTextItem[]): Line[] {
  const runs = items
    .filter((it) => it.str.trim() !== "")
    .map((it) => ({ page: it.page, run: { text: it.str, x0: it.x, x1: it.x + Math.max(it.width, 0), y: it.y, h: it.height > 0 ? it.height : 10 } }))
    .sort((a, b) => a.page - b.page || b.run.y - a.run.y || a.run.x0 - b.run.x0);
  const lines: { page: number; y: number; runs: Run[] }[] = [];
  for (const { page, run } of runs) {
    const last = lines.at(-1);
    if (last && last.page === page && Math.abs(last.y - run.y) <= run.h * SAME_LINE) last.runs.push(run);
    else lines.push({ page, y: run.y, runs: [run] });
  }
  for (const l of lines) l.runs.sort((a, b) => a.x0 - b.x0);
  return lines;
}

interface Cluster {
  x0: number;
  x1: number;
  runs: { run: Run; line: number }[];
}

const clusterText = (c: Cluster): string => c.runs.map((r) => r.run.text).join(" ");

/** Header runs grouped into cells: runs that overlap (or nearly touch) horizontally, across the band's lines. */
function clusters(band: readonly Line[]): Cluster[] {
  const runs = band.flatMap((l, line) => l.runs.map((run) => ({ run, line }))).sort((a, b) => a.run.x0 - b.run.x0);
  const out: Cluster[] = [];
  for (const r of runs) {
    const last = out.at(-1);
    if (last && r.run.x0 <= last.x1 + r.run.h * CELL_GAP) {
      last.x1 = Math.max(last.x1, r.run.x1);
      last.runs.push(r);
    } else out.push({ x0: r.run.x0, x1: r.run.x1, runs: [r] });
  }
  // Texts in reading order: a header wrapped as `Step` over `Name` reads `Step Name`.
  for (const c of out) c.runs.sort((a, b) => a.line - b.line || a.run.x0 - b.run.x0);
  return out;
}

/**
 * The table whose header starts at line `start`, with the index of the first line after it. The
 * widest band of lines that still reads as a header wins: a header wrapped over two lines reads
 * as one at its first line already (`Step` beside `Description`), but means `Step Name`.
 */
function tableAt(lines: readonly Line[], start: number): { rows: string[][]; end: number } | undefined {
  const first = lines[start]!;
  const h = first.runs[0]!.h;
  let found: { header: Cluster[]; n: number } | undefined;
  for (let n = 1; n <= HEADER_MAX_LINES && start + n <= lines.length; n++) {
    const band = lines.slice(start, start + n);
    const lastOfBand = band.at(-1)!;
    if (lastOfBand.page !== first.page || first.y - lastOfBand.y > h * HEADER_BAND) break;
    const header = clusters(band);
    if (header.length >= 2 && readHeader(header.map(clusterText))) found = { header, n };
  }
  return found ? readTable(lines, start + found.n, found.header) : undefined;
}

function readTable(lines: readonly Line[], from: number, header: readonly Cluster[]): { rows: string[][]; end: number } {
  // Each gap between two header cells keeps the x-intervals no data run has covered yet; a line
  // that would close one (a paragraph running across the columns) is past the table's end.
  let slots: [number, number][][] = header.slice(1).map((c, k) => [[header[k]!.x1, c.x0]]);
  let end = from;
  for (; end < lines.length; end++) {
    const next = slots.map((free) => lines[end]!.runs.reduce((acc, r) => subtract(acc, r.x0, r.x1), free));
    if (next.some((free) => free.length === 0)) break;
    slots = next;
  }
  // The leftmost free interval of each gap is the gutter: a left-aligned column's text starts
  // right after it, and a centred header can leave free space inside the column too.
  const bounds = slots.map((free) => (free[0]![0] + free[0]![1]) / 2);
  const column = (r: Run) => bounds.filter((b) => (r.x0 + r.x1) / 2 > b).length;
  const nameColumn = readHeader(header.map(clusterText))?.name;
  const body = lines.slice(from, end);
  const rows: Line[][] = [];
  body.forEach((line, i) => {
    const prev = body[i - 1];
    const gap = prev && (prev.page !== line.page || prev.y - line.y > line.runs[0]!.h * ROW_GAP);
    // With a name column, a second name in one gap-delimited group starts a row of its own (a
    // table printed without cell padding has no wider gaps between rows).
    const named = nameColumn !== undefined && line.runs.some((r) => column(r) === nameColumn);
    const current = rows.at(-1);
    const currentNamed = current?.some((l) => l.runs.some((r) => column(r) === nameColumn)) ?? false;
    if (!current || gap || (named && currentNamed)) rows.push([line]);
    else current.push(line);
  });
  const width = header.length;
  const cells = (group: readonly Line[]) => {
    const out: string[][] = Array.from({ length: width }, () => []);
    for (const l of group) for (const r of l.runs) out[column(r)]!.push(r.text);
    return out.map((texts) => texts.join("\n"));
  };
  return { rows: [header.map(clusterText), ...rows.map(cells)], end };
}

/** `free` minus the interval [x0, x1]. */
function subtract(free: [number, number][], x0: number, x1: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of free) {
    if (x1 <= a || x0 >= b) out.push([a, b]);
    else {
      if (x0 > a) out.push([a, x0]);
      if (x1 < b) out.push([x1, b]);
    }
  }
  return out;
}
