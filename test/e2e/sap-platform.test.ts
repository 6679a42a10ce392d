// SAP GUI runs only on Windows: on any other OS a SAP flow (app: sap, or a sap surface) stops at
// load with unsupported-platform, before a browser or SAP Logon starts; `validate` refuses it the
// same way, and `flowproof config sap` needs Windows too. Exit code 2 each time.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tmpProject } from "../support/tmp-project.ts";

const ORDER_FLOW = `name: Create an order
app: sap
connection: TS3
login:
  user: \${CLERK_USER}
  password: \${CLERK_PW}
steps:
  - Go to VA01
`;

const SURFACE_FLOW = `name: Order in SAP, listed on the portal
apps:
  portal: { app: web, url: "http://127.0.0.1:9/" }
  clerk: { app: sap, connection: TS3, login: { user: clerk, password: "\${CLERK_PW}" } }
steps:
  - in: clerk
    steps:
      - Go to VA01
  - in: portal
    steps:
      - assert: page shows 4711
`;

describe.skipIf(process.platform === "win32")("sap on a platform without SAP GUI", () => {
  test("app: sap is unsupported-platform at load for record, run and validate (exit 2, file:line:col)", async () => {
    const p = tmpProject();
    try {
      writeFileSync(join(p.dir, "order.flow.yaml"), ORDER_FLOW);
      const env = { CLERK_USER: "clerk", CLERK_PW: "Canary-Linux-4c1e" };
      for (const command of ["record", "run", "validate"]) {
        const r = await runCli([command, "order.flow.yaml"], { cwd: p.dir, env });
        expect(r.code, `${command}: ${r.stdout}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toContain("order.flow.yaml:2:6");
        expect(r.stderr).toContain("unsupported-platform");
        expect(r.stderr).toContain("`app: sap` requires Windows");
        expect(r.stdout + r.stderr).not.toContain("Canary-Linux-4c1e");
      }
    } finally {
      p.remove();
    }
  });

  test("a sap surface is refused at its app value; the web surface never opens", async () => {
    const p = tmpProject();
    try {
      writeFileSync(join(p.dir, "portal.flow.yaml"), SURFACE_FLOW);
      for (const command of ["validate", "record"]) {
        const r = await runCli([command, "portal.flow.yaml"], { cwd: p.dir, env: { CLERK_PW: "Canary-Linux-4c1e" } });
        expect(r.code, `${command}: ${r.stdout}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toContain("portal.flow.yaml:4:17");
        expect(r.stderr).toContain("`apps.clerk.app: sap` requires Windows");
      }
    } finally {
      p.remove();
    }
  });

  test("flowproof config sap needs Windows (exit 2)", async () => {
    const p = tmpProject();
    try {
      const config = await runCli(["config", "sap", "--show"], { cwd: p.dir });
      expect(config.code).toBe(2);
      expect(config.stderr).toContain("`flowproof config sap` requires Windows");
    } finally {
      p.remove();
    }
  });
});
