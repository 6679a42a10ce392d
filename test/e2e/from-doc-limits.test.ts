// author-from-doc holds every document to the bounds of docs/flow-format.md "Limits", through the
// real CLI: a zip bomb refused by the sizes its zip directory declares before anything is
// inflated, a CSV by its rows, a PDF by its pages, any file by its size; each message names the
// limit and the variable that raises it, and raising it lets the document through.
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, existsSync, openSync, ftruncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { buildPdf } from "../support/pdf.ts";
import { tmpProject } from "../support/tmp-project.ts";

const p = tmpProject("flowproof-doc-limits-");
afterAll(() => p.remove());

/** A .docx whose document part is `megabytes` MiB of one repeated run, deflated to a few kilobytes. */
function docxBomb(megabytes: number): Uint8Array {
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>`;
  const tail = "</w:t></w:r></w:p></w:body></w:document>";
  const body = Buffer.alloc(megabytes * 1024 * 1024, "a");
  const xml = Buffer.concat([Buffer.from(head), body, Buffer.from(tail)]);
  const entries = [
    {
      name: "[Content_Types].xml",
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      ),
    },
    {
      name: "_rels/.rels",
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
      ),
    },
    { name: "word/document.xml", data: xml },
  ];
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = deflateRawSync(e.data, { level: 9 });
    const crc = Bun.hash.crc32(e.data) >>> 0;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(8, 8);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(packed.length, 18);
    h.writeUInt32LE(e.data.length, 22);
    h.writeUInt16LE(name.length, 26);
    local.push(h, name, packed);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(8, 10);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(packed.length, 20);
    c.writeUInt32LE(e.data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += 30 + name.length + packed.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...local, dir, end]));
}

const author = (doc: string, out: string, env: Record<string, string> = {}) =>
  runCli(["author-from-doc", doc, "--app", "web", "--name", "Limits", "-o", out], { cwd: p.dir, env });

describe("author-from-doc refuses a document past its bounds, naming the limit", () => {
  test("a .docx zip bomb is refused by its declared size, before it is inflated", async () => {
    const bomb = docxBomb(64);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    writeFileSync(join(p.dir, "bomb.docx"), bomb);
    const started = performance.now();
    const r = await author("bomb.docx", "bomb.flow.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[limit-exceeded]");
    expect(r.stderr).toMatch(
      /bomb\.docx unzips to \d+ bytes \(as its zip directory declares\), more than author-from-doc reads: 52428800 bytes \(raise it with FLOWPROOF_DOC_MAX_UNZIPPED_BYTES=<n>\)/,
    );
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 60_000);

  test("a CSV of more rows than the bound is refused before it is parsed; raising the bound reads it", async () => {
    const rows = ["Step,Expected Result", ...Array.from({ length: 2_501 }, (_, i) => `Click "Item ${i}",page shows ${i}`)];
    writeFileSync(join(p.dir, "many.csv"), `${rows.join("\n")}\n`);
    const r = await author("many.csv", "many.flow.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the CSV has 2502 rows, more than author-from-doc reads: 2500 rows (raise it with FLOWPROOF_DOC_MAX_ROWS=<n>)");
    writeFileSync(join(p.dir, "some.csv"), `${rows.slice(0, 60).join("\n")}\n`);
    const lowered = await author("some.csv", "some.flow.yaml", { FLOWPROOF_DOC_MAX_ROWS: "50" });
    expect([lowered.code, lowered.stderr]).toEqual([2, expect.stringContaining("the CSV has 60 rows, more than author-from-doc reads: 50 rows")]);
    const raised = await author("some.csv", "some.flow.yaml", { FLOWPROOF_DOC_MAX_ROWS: "100" });
    expect(raised.code).toBe(0);
  }, 120_000);

  test("a PDF of more pages than the bound is refused before its text is read", async () => {
    writeFileSync(join(p.dir, "long.pdf"), buildPdf(Array.from({ length: 501 }, (_, i) => [{ x: 72, y: 700, text: `Page ${i + 1}` }])));
    const r = await author("long.pdf", "long.flow.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("the PDF has 501 pages, more than author-from-doc reads: 500 pages (raise it with FLOWPROOF_DOC_MAX_PAGES=<n>)");
  }, 60_000);

  test("a file larger than the bound is refused by its size, unread", async () => {
    // Sparse: 21 MiB long, next to nothing on disk.
    const fd = openSync(join(p.dir, "huge.pdf"), "w");
    ftruncateSync(fd, 21 * 1024 * 1024);
    closeSync(fd);
    const r = await author("huge.pdf", "huge.flow.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`holds ${21 * 1024 * 1024} bytes, more than author-from-doc reads: 20971520 bytes (raise it with FLOWPROOF_DOC_MAX_BYTES=<n>)`);
  }, 60_000);

  test("SIGTERM ends a long author-from-doc at once, in the middle of its synchronous work", async () => {
    // Far more rows than the default bound allows (raised for this run): the work takes many times
    // longer than the moment the signal lands, on an idle machine as on a busy one.
    const rows = ["Step,Expected Result", ...Array.from({ length: 40_000 }, (_, i) => `Click "Item ${i}",page shows ${i}`)];
    writeFileSync(join(p.dir, "long.csv"), `${rows.join("\n")}\n`);
    const proc = Bun.spawn(
      [process.execPath, join(REPO_ROOT, "bin", "flowproof.js"), "author-from-doc", "long.csv", "--app", "web", "--name", "Long", "-o", "long.flow.yaml"],
      { cwd: p.dir, env: { ...process.env, FLOWPROOF_DOC_MAX_ROWS: "50000" }, stdout: "pipe", stderr: "pipe" },
    );
    const started = performance.now();
    await Bun.sleep(2_000);
    expect(proc.exitCode).toBeNull();
    const signalled = performance.now();
    proc.kill("SIGTERM");
    await proc.exited;
    const took = performance.now() - signalled;
    expect(signalled - started).toBeGreaterThan(0);
    expect(proc.signalCode ?? proc.exitCode).toBeOneOf(["SIGTERM", 143]);
    expect(took).toBeLessThan(2_000);
    expect(existsSync(join(p.dir, "long.flow.yaml"))).toBe(false);
  }, 60_000);

  test("a bound set to something other than a positive whole number is an error naming the variable", async () => {
    const r = await author("many.csv", "x.flow.yaml", { FLOWPROOF_DOC_MAX_ROWS: "lots" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('FLOWPROOF_DOC_MAX_ROWS must be a positive whole number of rows, not "lots"');
  });
});
