// `flowproof heal` end to end: a fixture page whose button changed label, id and position after
// recording; heal proposes the diff and a heal.html (opened in headless Chromium here) without
// touching the trace, and --apply makes the next replay pass. The model is a local scripted server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startServer, type TestServer } from "../support/server.ts";
import { startScriptedModel, type ScriptedModel } from "../support/model-server.ts";
import { requireChromium } from "../support/chromium.ts";
import { runCli } from "../support/cli.ts";
import { flowYaml, tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { expectValidTrace } from "../support/schemas.ts";
import { plugin as web } from "../../plugins/web/index.ts";
import type { Selector } from "../../src/plugins/api.ts";

let server: TestServer;
let model: ScriptedModel;
let project: TmpProject;
let version: 1 | 2 = 1;

const page = (v: 1 | 2) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
${v === 2 ? '<button id="submit-order" type="button">Place order</button>' : ""}
<h1>Shop</h1>
<label for="qty">Quantity</label> <input id="qty">
<p id="status"></p>
${v === 1 ? '<div style="margin-top:300px"><button id="send" type="button">Send order</button></div>' : ""}
<script>
  document.querySelector("button").addEventListener("click", () => {
    document.getElementById("status").textContent = "Order sent: " + document.getElementById("qty").value;
  });
</script></body></html>`;

const QTY = "Enter 3 as the quantity";
const SEND = "Send the order";

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  server.setRoute("/shop.html", () => new Response(page(version), { headers: { "content-type": "text/html; charset=utf-8" } }));
  model = await startScriptedModel();
  model.script(QTY, JSON.stringify([{ action: "type_text", target: "css:#qty", text: "3" }]));
  // The model grounds the step on whichever button the live page lists.
  model.script(SEND, (req) => {
    const scene = req.body.messages[1]!.content;
    const target = scene.includes('"target":"css:#send"') ? "css:#send" : "css:#submit-order";
    return JSON.stringify([{ action: "click", target }]);
  });
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  model.stop();
  project.remove();
});

const css = (selector: string): Selector[] => [{ tier: "native_id", provenance: "test", payload: { css: selector } }];

describe("flowproof heal", () => {
  test("proposes a reviewable diff for a moved, relabelled button, and --apply makes the replay pass", async () => {
    const spec = project.write("shop.flow.yaml", flowYaml("Shop", `${server.url}/shop.html`, [QTY, SEND, 'assert: "page shows Order sent: 3"']));
    const env = model.env();
    const tracePath = join(project.dir, "shop.trace.jsonl");
    expect((await runCli(["record", spec], { cwd: project.dir, env })).code).toBe(0);
    const recorded = readFileSync(tracePath, "utf8");

    version = 2;
    const failing = await runCli(["run", spec], { cwd: project.dir, env });
    expect(failing.code).toBe(1);

    // Healthy steps are unchanged; the button step changed its selectors only.
    const healed = await runCli(["heal", spec, "--json"], { cwd: project.dir, env });
    expect(healed.code).toBe(1);
    const out = JSON.parse(healed.stdout) as {
      applied: boolean;
      report: {
        changed: boolean;
        steps_changed: Array<{ id: string; intent: string; fields: string[]; old: { selectors: Selector[] }; new: { selectors: Selector[] } }>;
        steps_added: number;
        steps_removed: number;
        proposed_path: string;
        diff_html: string;
        routing: Array<{ route: string }>;
      };
    };
    expect(out.applied).toBe(false);
    expect(out.report).toMatchObject({ changed: true, steps_added: 0, steps_removed: 0 });
    expect(out.report.steps_changed.map((c) => [c.id, c.intent, c.fields])).toEqual([["s0002", SEND, ["selectors"]]]);
    expect(out.report.steps_changed[0]!.old.selectors[0]!.payload).toEqual({ css: "#send" });
    expect(out.report.steps_changed[0]!.new.selectors[0]!.payload).toEqual({ css: "#submit-order" });
    expect(out.report.routing.map((r) => r.route)).toEqual(["llm", "llm", "rules"]);
    expect(out.report.proposed_path).toBe(join(project.dir, "shop.proposed.jsonl"));
    expectValidTrace(out.report.proposed_path);
    // The trace itself is untouched without --apply.
    expect(readFileSync(tracePath, "utf8")).toBe(recorded);

    // heal.html opens in headless Chromium and shows the old frames beside the new ones.
    const htmlPath = join(project.dir, "shop.heal.html");
    expect(out.report.diff_html).toBe(htmlPath);
    const session = await web.open();
    try {
      const driver = await session.launch({}, { baseDir: project.dir, log: () => undefined });
      expect((await driver.navigate(pathToFileURL(htmlPath).href, 10_000)).ok).toBe(true);
      expect(await driver.count(css("section.changed"))).toBe(1);
      expect((await driver.check(css('section.changed[data-step="s0002"] h2'), { kind: "text_contains", text: "Send the order" })).pass).toBe(true);
      expect(await driver.count(css(".col.old img"))).toBeGreaterThan(0);
      expect(await driver.count(css(".col.new img"))).toBeGreaterThan(0);
      expect(await driver.count(css('img[data-loaded="true"]'))).toBe(await driver.count(css("img")));
      expect((await driver.check(css("pre.new"), { kind: "text_contains", text: "#submit-order" })).pass).toBe(true);
      await driver.close();
    } finally {
      await session.close();
    }

    const human = await runCli(["heal", spec], { cwd: project.dir, env });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("  [CHANGED] s0002 Send the order (selectors)");
    expect(human.stdout).toContain("REVIEW: shop.heal.html");
    expect(human.stdout).toContain("PROPOSED: review shop.proposed.jsonl then re-run with --apply");

    const applied = await runCli(["heal", spec, "--apply"], { cwd: project.dir, env });
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("APPLIED: shop.trace.jsonl updated in place");
    expect(existsSync(join(project.dir, "shop.proposed.jsonl"))).toBe(false);
    expectValidTrace(tracePath);

    const before = model.requests.length;
    const passing = await runCli(["run", spec], { cwd: project.dir, env });
    expect(passing.code).toBe(0);
    expect(model.requests.length).toBe(before);

    const healthy = await runCli(["heal", spec], { cwd: project.dir, env });
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toContain("HEALTHY: Shop");
    expect(existsSync(join(project.dir, "shop.proposed.jsonl"))).toBe(false);
  });
});
