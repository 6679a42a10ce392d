// The grid's file archives: what zipOne writes, unzip reads back; a real archive made by `zip`
// (stored and deflated entries, a streamed one whose sizes live only in the central directory) too.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, unzip, zipOne } from "./zip.ts";

test("crc32 is the zip checksum", () => {
  expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
});

test("zipOne writes an archive unzip reads back byte for byte, and python's zipfile agrees", () => {
  const data = new Uint8Array(5000).map((_, i) => (i * 7) % 256);
  const zipped = zipOne("näme.bin", data);
  expect([...unzip(zipped).entries()].map(([n, d]) => [n, Buffer.from(d).equals(Buffer.from(data))])).toEqual([["näme.bin", true]]);
  const dir = mkdtempSync(join(tmpdir(), "flowproof-zip-"));
  try {
    writeFileSync(join(dir, "a.zip"), zipped);
    const check = Bun.spawnSync([
      "python3",
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.namelist()[0], len(z.read(z.namelist()[0])))",
      join(dir, "a.zip"),
    ]);
    expect(check.stdout.toString().trim()).toBe("näme.bin 5000");
    // A streamed archive (sizes only in the central directory, as Java writes them), made by python.
    writeFileSync(
      join(dir, "make.py"),
      "import sys, zipfile\nclass Unseekable:\n  def __init__(s, f): s.f = f\n  def write(s, b): return s.f.write(b)\n  def flush(s): s.f.flush()\nwith open(sys.argv[1], 'wb') as raw:\n  f = Unseekable(raw)\n  z = zipfile.ZipFile(f, 'w', zipfile.ZIP_DEFLATED)\n  with z.open('report.csv', 'w', force_zip64=False) as e:\n    e.write(b'a,b\\n1,2\\n')\n  z.writestr(zipfile.ZipInfo('dir/'), b'')\n  z.writestr('stored.txt', b'plain', compress_type=zipfile.ZIP_STORED)\n  z.close()\n",
    );
    expect(Bun.spawnSync(["python3", join(dir, "make.py"), join(dir, "b.zip")]).exitCode).toBe(0);
    expect(readFileSync(join(dir, "b.zip")).readUInt16LE(6) & 0x08).toBe(0x08); // the first entry is streamed (data descriptor)
    const entries = unzip(new Uint8Array(readFileSync(join(dir, "b.zip"))));
    expect([...entries.keys()]).toEqual(["report.csv", "stored.txt"]);
    expect(new TextDecoder().decode(entries.get("report.csv"))).toBe("a,b\n1,2\n");
    expect(new TextDecoder().decode(entries.get("stored.txt"))).toBe("plain");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("anything else is a coded error naming what is wrong", () => {
  expect(() => unzip(new TextEncoder().encode("not a zip"))).toThrow("the grid sent a file archive flowproof cannot read: not a zip archive");
});
