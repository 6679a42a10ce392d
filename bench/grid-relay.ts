// Measurement: what the grid's relay costs a DevTools command, apart from the flow.
//
//   node_modules/.bin/bun bench/grid-relay.ts [--runs N]
//
// Starts a one-node test grid (test/support/grid.ts), opens one W3C session and drives its
// browser three ways: through the hub's se:cdp, through the node's own se:cdp, and straight to the
// browser's DevTools port (the session's goog:chromeOptions.debuggerAddress, reachable only
// because the node runs on this machine). Prints the median of an awaited Runtime.evaluate and of
// typing 25 characters (50 key events sent pipelined, as flowproof types) each way, and the same
// against the same Chromium binary launched by flowproof itself on this machine. Exit codes:
// 0 after the figures, 2 when the grid cannot start.
import { Connection } from "../plugins/web/cdp/connection.ts";
import { launchBrowser } from "../plugins/web/launch.ts";
import { strokeEvents, textStrokes } from "../plugins/web/keyboard.ts";
import { gridUnavailable, startGrid } from "../test/support/grid.ts";
import { median, wholeOption } from "./stats.ts";

async function main(): Promise<number> {
  const runs = wholeOption("--runs", 9, "bun bench/grid-relay.ts [--runs N]", 1);
  const missing = gridUnavailable();
  if (missing) {
    console.error(`bench: cannot start a grid: ${missing}`);
    return 2;
  }
  const grid = await startGrid({ nodes: 1 });
  const local = await launchBrowser("/usr/lib/chromium/chromium");
  let sessionId: string | undefined;
  try {
    const created = (await (
      await fetch(`${grid.url}/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify({ capabilities: { alwaysMatch: { browserName: "chrome" } } }),
      })
    ).json()) as { value: { sessionId: string; capabilities: Record<string, unknown> } };
    sessionId = created.value.sessionId;
    const caps = created.value.capabilities;
    const debuggerAddress = (caps["goog:chromeOptions"] as { debuggerAddress: string }).debuggerAddress;
    const version = (await (await fetch(`http://${debuggerAddress}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const ways: Array<[string, string]> = [
      ["through the hub", String(caps["se:cdp"])],
      ["through the node", `${grid.nodes[0]!.uri.replace(/^http/, "ws")}/session/${sessionId}/se/cdp`],
      ["to the browser", version.webSocketDebuggerUrl],
      ["launched locally", local.wsUrl],
    ];
    const keys = strokeEvents(textStrokes("abcdefghijklmnopqrstuvwxy"));
    console.log(`DevTools commands to one grid session's browser, ${runs} runs each, medians (ms)`);
    console.log("                    evaluate   25 chars typed (50 key events pipelined)");
    for (const [name, url] of ways) {
      const c = await Connection.connect(url);
      const { targetId } = await c.send("Target.createTarget", { url: "data:text/html,<input id=f>" });
      const { sessionId: page } = await c.send("Target.attachToTarget", { targetId, flatten: true });
      const s = c.session(page);
      await s.send("Runtime.evaluate", {
        expression: "new Promise((r) => setTimeout(r, 200)).then(() => document.getElementById('f').focus())",
        awaitPromise: true,
      });
      const evaluate: number[] = [];
      const typing: number[] = [];
      for (let i = 0; i < runs; i++) {
        let t0 = performance.now();
        await s.send("Runtime.evaluate", { expression: "0" });
        evaluate.push(performance.now() - t0);
        t0 = performance.now();
        await Promise.all(keys.map((e) => s.send("Input.dispatchKeyEvent", e)));
        typing.push(performance.now() - t0);
      }
      console.log(`${name.padEnd(18)} ${median(evaluate).toFixed(2).padStart(9)}   ${median(typing).toFixed(1).padStart(8)}`);
      await c.send("Target.closeTarget", { targetId });
      await c.close();
    }
    return 0;
  } finally {
    if (sessionId) await fetch(`${grid.url}/session/${sessionId}`, { method: "DELETE" }).catch(() => undefined);
    await local.close();
    await grid.stop();
  }
}

process.exit(await main());
