// A project adapter reports what a step changed through `observeEffect`, as the web does: a button
// whose press sent an order at record and sends nothing at replay (a dead button) fails the replay
// at that step, naming the missing effect.
import { afterAll, describe, expect, test } from "bun:test";
import { runCli } from "../support/cli.ts";
import { readTrace } from "../support/trace.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { join } from "node:path";

const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

/** An order console whose "Submit" button sends `POST /orders` (nothing when INV_DEAD is set), and reports it as the step's effect. */
const PLUGIN = `
import { defineAdapter, effectRequest } from "flowproof";

const unsupported = async () => ({ ok: false, failed: "unsupported", detail: "the order console cannot", retryable: false });

export const plugin = defineAdapter({
  kind: "orders",
  title: "the order console",
  capabilities: ["pointer"],
  open: async () => ({
    launch: async () => {
      let sent = [];
      let shown = "no orders";
      return {
        capabilities: new Set(["pointer"]),
        navigate: async () => ({ ok: true, value: undefined }),
        reload: async () => ({ ok: true, value: undefined }),
        click: async (ladder) => {
          if (ladder[0]?.payload?.text !== "Submit") return { ok: false, failed: "not_found", detail: "no such button", retryable: true };
          if (!process.env.INV_DEAD) {
            sent.push(effectRequest("POST", "http://console/orders/1234"));
            shown = "order sent";
          }
          return { ok: true, value: undefined };
        },
        hover: unsupported, fill: unsupported, typeFocused: unsupported, pressKey: unsupported, select: unsupported, setChecked: unsupported,
        readText: async () => ({ ok: true, value: shown }),
        count: async () => 1,
        check: async (_ladder, expect) => ({ pass: expect.kind === "text_contains", actual: shown }),
        observeEffect: async () => {
          sent = [];
          return {
            kinds: ["request"],
            read: async () => ({ effect: sent.length > 0 ? { requests: [...sent] } : {}, idleMs: 1000, final: true }),
            stop: async () => {},
          };
        },
        environment: async () => ({ os: process.platform, resolution: [0, 0] }),
        close: async () => {},
      };
    },
    close: async () => {},
  }),
});
`;

describe("a project adapter's step effects", () => {
  test("an effect recorded by a project adapter is checked at replay: a dead button fails at its step", async () => {
    const p = tmpProject();
    projects.push(p);
    p.write("package.json", "{}");
    p.write("plugins/orders.ts", PLUGIN);
    const spec = p.write("submit.flow.yaml", 'name: Submit\napp: orders\nsteps:\n  - rules: Click "Submit"\n  - assert: page shows anything\n');
    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: p.dir });
    expect(rec.code).toBe(0);
    const { steps } = readTrace(join(p.dir, "submit.trace.jsonl"));
    expect(steps[0]?.["effect"]).toEqual({ observes: ["request"], requests: ["POST /orders/:id"] });
    expect((await runCli(["run", spec], { cwd: p.dir })).code).toBe(0);
    const dead = await runCli(["run", spec, "--json"], { cwd: p.dir, env: { INV_DEAD: "1" } });
    expect(dead.code).toBe(1);
    const report = (JSON.parse(dead.stdout) as { report: { steps: Array<{ status: string; detail?: string }> } }).report;
    expect(report.steps[0]?.status).toBe("failed");
    expect(report.steps[0]?.detail).toContain("POST /orders/:id");
  }, 60_000);
});
