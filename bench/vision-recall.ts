// Benchmark: OCR recall on real toolkit screenshots (test/fixtures/vision/screens/: GTK 3 light,
// dark and on a black remote desktop, xcalc's Athena buttons, a Tk list dialog). Prints, per
// screenshot, found ÷ expected texts, the time to read it, and the texts missed.
//
//   node_modules/.bin/bun bench/vision-recall.ts [--json]
//
// Exit code 0 after printing the figures (a measurement; plugins/vision/recall.test.ts holds the floors).
import { OcrEngine } from "../plugins/vision/ocr/engine.ts";
import { readModel } from "../plugins/vision/ocr/model.ts";
import { loadScreenshots, measure } from "../plugins/vision/recall.ts";

const engine = await OcrEngine.start((await readModel()).bytes);
const rows: { file: string; found: number; expected: number; ms: number; missed: readonly string[] }[] = [];
try {
  for (const shot of loadScreenshots()) {
    const r = await measure(engine, shot);
    rows.push({ file: shot.file, found: r.found.length, expected: shot.texts.length, ms: Math.round(r.ms), missed: r.missed });
  }
} finally {
  await engine.terminate();
}
const pad = (s: string, n: number) => s.padEnd(n);
console.log(`${pad("screenshot", 20)} ${pad("recall", 14)} ${pad("ms", 6)} missed`);
for (const r of rows)
  console.log(
    `${pad(r.file, 20)} ${pad(`${r.found}/${r.expected} ${Math.round((100 * r.found) / r.expected)}%`, 14)} ${pad(String(r.ms), 6)} ${r.missed.map((m) => JSON.stringify(m)).join(" ")}`,
  );
const found = rows.reduce((s, r) => s + r.found, 0);
const expected = rows.reduce((s, r) => s + r.expected, 0);
console.log(`${pad("all", 20)} ${found}/${expected} ${Math.round((100 * found) / expected)}%`);
if (process.argv.includes("--json")) console.log(JSON.stringify(rows));
