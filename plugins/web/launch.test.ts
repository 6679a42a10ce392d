import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { CHROME_ARGS, INSTALL_HINT, endpointWebSocketUrl, findBrowser } from "./launch.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

/** A fresh temp dir holding empty executable files with the given names. */
function binDir(...names: string[]): string {
  const d = mkdtempSync(join(dir || (dir = mkdtempSync(join(tmpdir(), "flowproof-launch-"))), "bin-"));
  for (const name of names) {
    writeFileSync(join(d, name), "#!/bin/sh\nexit 0\n");
    chmodSync(join(d, name), 0o755);
  }
  return d;
}

describe("findBrowser", () => {
  test("takes FLOWPROOF_CHROME when it points at an existing file", () => {
    const path = join(binDir("my-chrome"), "my-chrome");
    expect(findBrowser({ FLOWPROOF_CHROME: path, PATH: binDir("chromium") })).toEqual({ path, tried: [] });
  });

  test("never falls back to another browser when FLOWPROOF_CHROME points at a missing file", () => {
    const missing = join(binDir(), "no-such-chrome");
    const r = findBrowser({ FLOWPROOF_CHROME: missing, PATH: binDir("chromium") });
    expect(r.path).toBeUndefined();
    expect(r.tried).toEqual([`FLOWPROOF_CHROME=${missing} (does not exist)`]);
  });

  test("prefers FLOWPROOF_CHROME over CHROME", () => {
    const a = join(binDir("a"), "a");
    const b = join(binDir("b"), "b");
    expect(findBrowser({ FLOWPROOF_CHROME: a, CHROME: b }).path).toBe(a);
  });

  test("takes CHROME when FLOWPROOF_CHROME is unset or empty", () => {
    const b = join(binDir("b"), "b");
    expect(findBrowser({ FLOWPROOF_CHROME: "", CHROME: b }).path).toBe(b);
    expect(findBrowser({ CHROME: b }).path).toBe(b);
  });

  test("finds an executable named chromium in a PATH directory", () => {
    const d = binDir("chromium");
    expect(findBrowser({ PATH: d })).toEqual({ path: join(d, "chromium"), tried: [] });
  });

  test("searches PATH directories in order for each name", () => {
    const first = binDir("google-chrome");
    const second = binDir("google-chrome");
    expect(findBrowser({ PATH: [first, second].join(delimiter) }).path).toBe(join(first, "google-chrome"));
  });

  test("prefers chromium over google-chrome whatever the directory order", () => {
    const chrome = binDir("google-chrome");
    const chromium = binDir("chromium");
    expect(findBrowser({ PATH: [chrome, chromium].join(delimiter) }).path).toBe(join(chromium, "chromium"));
  });

  test("says it looked on PATH when no name is found there", () => {
    const r = findBrowser({ PATH: binDir("firefox") });
    expect(r.tried[0]).toBe("chromium, chromium-browser, google-chrome, google-chrome-stable, chrome, msedge, microsoft-edge on PATH");
  });

  test("ignores empty PATH entries", () => {
    const d = binDir("chromium");
    expect(findBrowser({ PATH: `${delimiter}${d}${delimiter}` }).path).toBe(join(d, "chromium"));
  });
});

describe("CHROME_ARGS", () => {
  test("runs headless on a free DevTools port without first-run prompts", () => {
    expect(CHROME_ARGS).toContain("--headless=new");
    expect(CHROME_ARGS).toContain("--remote-debugging-port=0");
    expect(CHROME_ARGS).toContain("--no-first-run");
  });
});

describe("INSTALL_HINT", () => {
  test("names both ways to get a browser", () => {
    expect(INSTALL_HINT).toContain("FLOWPROOF_CHROME");
    expect(INSTALL_HINT).toContain("apt-get install chromium");
  });
});

describe("findBrowser skips what cannot run", () => {
  test("ignores a non-executable file and a directory named chromium on PATH", () => {
    const dir = mkdtempSync(join(tmpdir(), "fp-path-"));
    const sub = mkdtempSync(join(tmpdir(), "fp-path2-"));
    try {
      writeFileSync(join(dir, "chromium"), "not a browser");
      chmodSync(join(dir, "chromium"), 0o644);
      const found = findBrowser({ PATH: [dir, sub].join(delimiter) });
      expect(found.path === join(dir, "chromium")).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(sub, { recursive: true, force: true });
    }
  });
});

describe("endpointWebSocketUrl", () => {
  test("takes a ws:// URL as given and asks an http:// endpoint's /json/version for its WebSocket", async () => {
    expect(await endpointWebSocketUrl("ws://127.0.0.1:1/devtools/browser/x")).toBe("ws://127.0.0.1:1/devtools/browser/x");
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) => new URL(req.url).pathname === "/json/version"
        ? Response.json({ Browser: "Chrome/1", webSocketDebuggerUrl: "ws://127.0.0.1:9/devtools/browser/abc" })
        : new Response("no", { status: 404 }),
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect(await endpointWebSocketUrl(base)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      expect(await endpointWebSocketUrl(`${base}/`)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      expect(await endpointWebSocketUrl(`${base}/json/version`)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      await expect(endpointWebSocketUrl(`${base}/nope`)).rejects.toThrow("answered HTTP 404");
    } finally {
      server.stop(true);
    }
  });

  test("names the URL when nothing answers", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${server.port}`;
    server.stop(true);
    await expect(endpointWebSocketUrl(url)).rejects.toThrow(`no browser answered at ${url}/json/version`);
  });
});

