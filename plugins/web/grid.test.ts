// The grid client's pure parts (the URL and its credentials, the session's capabilities, when to
// ask for downloads) and how it fails against servers that are not a working grid. The real grid
// is in test/e2e/grid.test.ts.
import { describe, expect, test } from "bun:test";
import { openGridSession, parseGridUrl, queueTimeoutMs, sessionCapabilities, withDownloads } from "./grid.ts";

describe("parseGridUrl", () => {
  test("credentials become Basic authentication and secrets; messages show *** instead", () => {
    const a = parseGridUrl("https://ci%40corp:k3y%2Fx@grid.example:4443/wd/hub/");
    expect(a.base).toBe("https://grid.example:4443/wd/hub");
    expect(a.shown).toBe("https://***@grid.example:4443/wd/hub");
    expect(a.authorization).toBe(`Basic ${Buffer.from("ci@corp:k3y/x").toString("base64")}`);
    expect(a.secrets).toContain("k3y/x");
    expect(a.secrets).toContain("k3y%2Fx");
    expect(a.secrets).toContain("https://ci%40corp:k3y%2Fx@grid.example:4443/wd/hub/");
    const plain = parseGridUrl("http://127.0.0.1:4444");
    expect(plain).toEqual({ base: "http://127.0.0.1:4444", shown: "http://127.0.0.1:4444", secrets: [] });
  });

  test("anything but http(s) is refused without echoing a key", () => {
    expect(() => parseGridUrl("ws://u:secret@hub:4444")).toThrow('the grid URL "ws://***@hub:4444" is not an http:// or https:// URL');
    expect(() => parseGridUrl("hub:4444")).toThrow("is not an http:// or https:// URL");
  });
});

test("sessionCapabilities: Chromium sized like the flow, its flags, and the flow's capabilities merged in", () => {
  const caps = sessionCapabilities({
    args: ["--lang=de"],
    windowSize: [390, 844],
    capabilities: { platformName: "linux", "goog:chromeOptions": { args: ["--x"], prefs: { a: 1 } } },
  });
  expect(caps).toEqual({
    alwaysMatch: {
      browserName: "chrome",
      platformName: "linux",
      "goog:chromeOptions": { prefs: { a: 1 }, args: ["--window-size=390,844", "--lang=de", "--x"] },
    },
  });
  expect(sessionCapabilities({ windowSize: [1280, 800], capabilities: { browserName: "MicrosoftEdge" } }).alwaysMatch["browserName"]).toBe("MicrosoftEdge");
});

test("withDownloads asks for se:downloadsEnabled only when a node offers it and the flow did not decide", () => {
  const base = { alwaysMatch: { browserName: "chrome" } };
  const offering = {
    nodes: [{ slots: [{ stereotype: { browserName: "chrome" } }] }, { slots: [{ stereotype: { browserName: "chrome", "se:downloadsEnabled": true } }] }],
  };
  expect(withDownloads(base, offering).alwaysMatch["se:downloadsEnabled"]).toBe(true);
  expect(withDownloads(base, { nodes: [{ slots: [{ stereotype: { browserName: "chrome" } }] }] })).toEqual(base);
  expect(withDownloads(base, "a vendor's status page")).toEqual(base);
  expect(withDownloads({ alwaysMatch: { "se:downloadsEnabled": false } }, offering).alwaysMatch["se:downloadsEnabled"]).toBe(false);
});

test("queueTimeoutMs reads FLOWPROOF_GRID_QUEUE_TIMEOUT in seconds (default 300)", () => {
  expect(queueTimeoutMs({})).toBe(300_000);
  expect(queueTimeoutMs({ FLOWPROOF_GRID_QUEUE_TIMEOUT: "20" })).toBe(20_000);
  expect(queueTimeoutMs({ FLOWPROOF_GRID_QUEUE_TIMEOUT: "soon" })).toBe(300_000);
});

describe("openGridSession against servers that are not a working grid", () => {
  const caps = sessionCapabilities({ windowSize: [1280, 800] });
  test("nothing listening: no Selenium Grid answered, naming the URL without its key", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = server.port;
    server.stop(true);
    const error = await openGridSession(parseGridUrl(`http://u:k3y-123@127.0.0.1:${port}`), { capabilities: caps, queueTimeoutMs: 5000 }).catch(
      (e: Error & { hint?: string }) => e,
    );
    expect((error as Error).message).toStartWith(`no Selenium Grid answered at http://***@127.0.0.1:${port}`);
    expect((error as { hint: string }).hint).toContain("FLOWPROOF_GRID_URL");
    expect(JSON.stringify(error)).not.toContain("k3y-123");
  });

  test("a server that is not a grid, one that refuses the credentials, and one that keeps the request queued", async () => {
    let mode = "404";
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        if (new URL(req.url).pathname === "/status")
          return mode === "401" ? new Response("", { status: 401 }) : Response.json({ value: { ready: true, nodes: [] } });
        if (mode === "queue") await Bun.sleep(3000);
        return new Response("not here", { status: 404 });
      },
    });
    try {
      const address = parseGridUrl(`http://127.0.0.1:${server.port}`);
      const open = (queueTimeoutMs = 5000) => openGridSession(address, { capabilities: caps, queueTimeoutMs }).catch((e: Error & { hint: string }) => e);
      const notGrid = (await open()) as Error & { hint: string };
      expect(notGrid.message).toContain("did not start a session: not here");
      expect(notGrid.hint).toContain("is not a Selenium Grid 4 endpoint (POST /session answered 404)");
      mode = "401";
      expect(((await open()) as Error).message).toContain("refused the credentials (HTTP 401)");
      mode = "queue";
      const queued = (await open(1000)) as Error & { hint: string };
      expect(queued.message).toContain("kept the session request queued for 1 s");
      expect(queued.hint).toContain("FLOWPROOF_GRID_QUEUE_TIMEOUT");
    } finally {
      server.stop(true);
    }
  });
});

test("a session still open when the process exits is deleted by the exit hook (a synchronous DELETE)", async () => {
  const deleted: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/status") return Response.json({ value: { ready: true, nodes: [] } });
      if (req.method === "POST" && path === "/session")
        return Response.json({ value: { sessionId: "s-1", capabilities: { browserName: "chrome", "se:cdp": "ws://elsewhere/session/s-1/se/cdp" } } });
      if (req.method === "DELETE") deleted.push(`${path} ${req.headers.get("authorization") ?? ""}`);
      return Response.json({ value: null });
    },
  });
  try {
    const script = `import { openGridSession, parseGridUrl, sessionCapabilities } from ${JSON.stringify(`${import.meta.dir}/grid.ts`)};
const s = await openGridSession(parseGridUrl("http://u:k@127.0.0.1:${server.port}"), { capabilities: sessionCapabilities({ windowSize: [800, 600] }), queueTimeoutMs: 5000 });
console.log(s.cdpUrl);
process.exit(0);`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(err).toBe("");
    expect(code).toBe(0);
    // se:cdp is addressed through the URL flowproof was given, credentials included.
    expect(out.trim()).toBe(`ws://u:k@127.0.0.1:${server.port}/session/s-1/se/cdp`);
    expect(deleted).toEqual([`/session/s-1 Basic ${Buffer.from("u:k").toString("base64")}`]);
  } finally {
    server.stop(true);
  }
});

test("the node holding the session (from /status) is its placement, and its own se:cdp endpoint is offered", async () => {
  let posted = false;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/status")
        return Response.json({
          value: {
            ready: true,
            nodes: [
              {
                uri: "http://10.0.0.7:5555",
                slots: [{ stereotype: { browserName: "chrome", "se:downloadsEnabled": true }, session: posted ? { sessionId: "s-9" } : null }],
              },
            ],
          },
        });
      if (req.method === "POST" && path === "/session") {
        posted = true;
        return req.json().then((body: unknown) =>
          Response.json({
            value: {
              sessionId: "s-9",
              capabilities: {
                browserName: "chrome",
                "se:cdp": "ws://internal:4444/session/s-9/se/cdp",
                "se:downloadsEnabled": (body as { capabilities: { alwaysMatch: Record<string, unknown> } }).capabilities.alwaysMatch["se:downloadsEnabled"],
              },
            },
          }),
        );
      }
      return Response.json({ value: null });
    },
  });
  try {
    const session = await openGridSession(parseGridUrl(`http://127.0.0.1:${server.port}`), {
      capabilities: sessionCapabilities({ windowSize: [800, 600] }),
      queueTimeoutMs: 5000,
    });
    expect(session.placement).toEqual({ grid: `http://127.0.0.1:${server.port}`, node: "http://10.0.0.7:5555", session: "s-9" });
    expect(session.nodeCdpUrl).toBe("ws://10.0.0.7:5555/session/s-9/se/cdp");
    expect(session.cdpUrl).toBe(`ws://127.0.0.1:${server.port}/session/s-9/se/cdp`);
    // The node offers downloads, so the request asked for them.
    expect(session.downloads).toBe(true);
    await session.close();
  } finally {
    server.stop(true);
  }
});
