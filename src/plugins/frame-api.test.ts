import { describe, expect, test } from "bun:test";
import { EVIDENCE_CSP, PASSWORD_FIELDS } from "./frame-api.ts";
import * as api from "./api.ts";

describe("the frames part of the plugin contract", () => {
  test("is what the plugin contract exports", () => {
    expect(api.EVIDENCE_CSP).toBe(EVIDENCE_CSP);
    expect(api.PASSWORD_FIELDS).toBe(PASSWORD_FIELDS);
  });

  test("the evidence policy lets nothing run, load from elsewhere, or navigate a form or base URL", () => {
    const directives = new Map(
      EVIDENCE_CSP.split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    // No script-src of its own: scripts, handlers and javascript: URLs fall back to default-src 'none'.
    expect(directives.has("script-src")).toBe(false);
    for (const [name, values] of directives)
      if (name !== "default-src")
        expect({ name, values: values.filter((v) => !["'unsafe-inline'", "data:", "'none'"].includes(v)) }).toEqual({ name, values: [] });
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    expect(directives.get("form-action")).toEqual(["'none'"]);
  });
});
