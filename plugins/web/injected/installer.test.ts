import { expect, test } from "bun:test";
import { installerOf } from "./installer.ts";

test("the installer runs the script with its own source text at hand, quotes and newlines intact", () => {
  const source = 'globalThis.__installerProbe = [__flowproofSource.length, "a\\"b\\n"];';
  try {
    (0, eval)(installerOf(source));
    expect((globalThis as { __installerProbe?: unknown }).__installerProbe).toEqual([source.length, 'a"b\n']);
  } finally {
    delete (globalThis as { __installerProbe?: unknown }).__installerProbe;
  }
});
