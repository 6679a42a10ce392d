import { describe, expect, test } from "bun:test";
import { launchConfig, shapingOf } from "./launch-config.ts";
import { loadFlowText, type Flow } from "../spec/flow.ts";
import { UnresolvedReferenceError } from "../engine/templates.ts";

const FLOW = `name: Shaped
app: web
url: http://127.0.0.1:3000/
mock:
  - { url_contains: /api, body: { ok: true } }
session:
  cookies:
    - { name: sid, value: "\${SID}" }
  local_storage: { token: "Bearer \${TOKEN}" }
browser:
  viewport: { width: 390, height: 844 }
  downloads_dir: out/downloads
  endpoint: \${GRID}
steps:
  - assert: page shows x
`;

function flow(): Flow {
  const r = loadFlowText("/p/a.flow.yaml", FLOW);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
  return r.flow;
}

describe("shapingOf", () => {
  test("copies the blocks as written, references raw", () => {
    expect(shapingOf(flow())).toEqual({
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "${SID}" }], local_storage: { token: "Bearer ${TOKEN}" } },
      browser: { viewport: { width: 390, height: 844 }, downloads_dir: "out/downloads", endpoint: "${GRID}" },
    });
  });

  test("is empty for a flow without blocks", () => {
    const r = loadFlowText("a.flow.yaml", "name: x\napp: web\nurl: http://x/\nsteps:\n  - assert: page shows x\n");
    expect(r.ok && shapingOf(r.flow)).toEqual({});
  });
});

describe("launchConfig", () => {
  test("resolves session values and the endpoint now, remembering them as secrets, and makes downloads_dir absolute", () => {
    const secrets = new Map<string, string>();
    const config = launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { SID: "abc123", TOKEN: "t0k", GRID: "ws://h:1/x" }, secrets);
    expect(config).toEqual({
      viewport: { width: 390, height: 844 },
      downloads_dir: "/p/out/downloads",
      endpoint: "ws://h:1/x",
      mock: [{ url_contains: "/api", body: { ok: true } }],
      session: { cookies: [{ name: "sid", value: "abc123" }], local_storage: { token: "Bearer t0k" } },
    });
    expect([...secrets.keys()].sort()).toEqual(["GRID", "SID", "TOKEN"]);
  });

  test("fails closed on an unset variable, naming it", () => {
    expect(() => launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { TOKEN: "t", GRID: "ws://h/x" }, new Map())).toThrow(UnresolvedReferenceError);
    expect(() => launchConfig(shapingOf(flow()), "/p/a.flow.yaml", { TOKEN: "t", GRID: "ws://h/x" }, new Map())).toThrow("${SID} is not set");
  });
});
