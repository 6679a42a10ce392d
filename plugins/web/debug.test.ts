import { describe, expect, test } from "bun:test";
import { ConsoleLog, remoteText, serializeDom, type DomNode } from "./debug.ts";
import type { Session } from "./cdp/connection.ts";

/** A session whose events the test fires by hand. */
function fakeSession() {
  const listeners = new Map<string, (p: unknown) => void>();
  const session = { on: (event: string, fn: (p: unknown) => void) => { listeners.set(event, fn); return () => listeners.delete(event); } } as unknown as Session;
  return { session, fire: (event: string, p: unknown) => listeners.get(event)?.(p), listeners };
}

describe("ConsoleLog", () => {
  test("keeps console calls, uncaught errors and log entries in order, and stops when told", () => {
    const { session, fire, listeners } = fakeSession();
    const log = new ConsoleLog();
    const stop = log.listen(session);
    fire("Runtime.consoleAPICalled", { type: "error", args: [{ type: "string", value: "boom" }, { type: "number", value: 42 }] });
    fire("Runtime.exceptionThrown", { exceptionDetails: { text: "Uncaught", exception: { type: "object", description: "Error: late" } } });
    fire("Log.entryAdded", { entry: { source: "network", level: "error", text: "Failed to load resource", url: "http://x/a.js" } });
    expect(log.lines.map((l) => l.replace(/^\[\+\d+\.\d{3}s\] /, ""))).toEqual([
      "console.error: boom 42",
      "uncaught: Error: late",
      "network.error: Failed to load resource (http://x/a.js)",
    ]);
    stop();
    expect(listeners.size).toBe(0);
  });

  test("keeps only the newest 500 lines", () => {
    const { session, fire } = fakeSession();
    const log = new ConsoleLog();
    log.listen(session);
    for (let i = 0; i < 510; i++) fire("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: `line ${i}` }] });
    expect(log.lines.length).toBe(500);
    expect(log.lines[0]).toContain("line 10");
  });
});

describe("remoteText", () => {
  test("shows objects and arrays by their preview, like the DevTools console", () => {
    expect(remoteText({ type: "object", preview: { type: "object", overflow: false, properties: [{ name: "a", type: "number", value: "1" }] } } as never)).toBe("{a: 1}");
    expect(remoteText({ type: "object", subtype: "array", preview: { type: "object", subtype: "array", overflow: true, properties: [{ name: "0", type: "number", value: "1" }] } } as never)).toBe("[1, …]");
    expect(remoteText({ type: "undefined" } as never)).toBe("undefined");
    expect(remoteText({ type: "object", subtype: "error", description: "Error: x" } as never)).toBe("Error: x");
  });
});

describe("serializeDom", () => {
  const SECRET = `Zq7Can&ry+S3c/"<x>"=`;
  const hide = (t: string) => t.split(SECRET).join("${S}");

  test("redacts text, attribute values, comments and raw text before escaping them", () => {
    const root: DomNode = ["html", [["lang", "en"]], [
      ["head", [], [["title", [], [`Hi ${SECRET}`]], ["script", [], [`var t = "${SECRET}"; if (a < b) {}`]]]],
      ["body", [["data-x", `q=${SECRET}`]], [{ comment: ` ${SECRET} ` }, ["p", [], [`a & b < c ${SECRET}`]], ["br", [], []], ["input", [["value", `${SECRET}`]], []]]],
    ]];
    const html = serializeDom("html", root, hide);
    expect(html).toBe(
      '<!DOCTYPE html>\n<html lang="en"><head><title>Hi ${S}</title><script>var t = "${S}"; if (a < b) {}</script></head>' +
        '<body data-x="q=${S}"><!-- ${S} --><p>a &amp; b &lt; c ${S}</p><br><input value="${S}"></body></html>',
    );
  });

  test("escapes what the page holds so the file stays well formed", () => {
    const html = serializeDom(null, ["div", [["title", 'say "hi" & <go>']], ["x\u00a0<y>", ["svg", [["viewBox", "0 0 1 1"]], [["foreignObject", [], []]]]]], (t) => t);
    expect(html).toBe('<div title="say &quot;hi&quot; &amp; &lt;go&gt;">x&nbsp;&lt;y&gt;<svg viewBox="0 0 1 1"><foreignObject></foreignObject></svg></div>');
  });
});
