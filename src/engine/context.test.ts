import { describe, expect, test } from "bun:test";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { redact, redactError, shortenShown, SHOWN_TEXT_CLOSE, SHOWN_TEXT_MAX, SHOWN_TEXT_OPEN, stepsWithLearned } from "./context.ts";
import type { TraceStep } from "../trace/schema.ts";

describe("redact", () => {
  test("replaces each secret value with its reference", () => {
    expect(
      redact(
        "user ada typed hunter2",
        new Map([
          ["USER", "ada"],
          ["PASS", "hunter2"],
        ]),
      ),
    ).toBe("user ${USER} typed ${PASS}");
  });

  test("replaces every occurrence", () => {
    expect(redact("abc-abc-abc", new Map([["X", "abc"]]))).toBe("${X}-${X}-${X}");
  });

  test("replaces longer secrets first so a shorter one inside cannot split them", () => {
    const secrets = new Map([
      ["SHORT", "pass"],
      ["LONG", "password123"],
    ]);
    expect(redact("password123 and pass", secrets)).toBe("${LONG} and ${SHORT}");
  });

  test.each([
    ["", "a"],
    ["ab", "ab"],
  ])("leaves values shorter than 3 characters alone (%p)", (value, text) => {
    expect(redact(`x ${text} y`, new Map([["TINY", value]]))).toBe(`x ${text} y`);
  });

  test("redacts a value of exactly 3 characters", () => {
    expect(redact("the abc", new Map([["V", "abc"]]))).toBe("the ${V}");
  });

  test("returns the text unchanged when there are no secrets", () => {
    expect(redact("nothing here", new Map())).toBe("nothing here");
  });
  const CANARY = `Zq7Can&ry+S3c/"<x>"=`;
  const canary = new Map([["CANARY", CANARY]]);
  const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

  test.each([
    ["raw", CANARY],
    ["HTML-escaped", html(CANARY)],
    ["HTML-escaped as a text node (quotes left)", CANARY.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")],
    ["HTML numeric entities", CANARY.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)],
    ["URL-encoded (encodeURIComponent)", encodeURIComponent(CANARY)],
    [
      "URL-encoded, lower-case hex",
      encodeURIComponent(CANARY)
        .toLowerCase()
        .replace(/zq7can/, "Zq7Can"),
    ],
    ["form-encoded", new URLSearchParams({ q: CANARY }).toString().slice(2)],
    ["double URL-encoded", encodeURIComponent(encodeURIComponent(CANARY))],
    ["JSON-escaped", JSON.stringify(CANARY).slice(1, -1)],
    ["upper case", CANARY.toUpperCase()],
    ["lower case", CANARY.toLowerCase()],
    ["base64", btoa(CANARY)],
    ["URL-safe base64", btoa(CANARY).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")],
  ])("redacts the %s form of a secret", (_, form) => {
    const out = redact(`before ${form} after`, canary);
    expect(out).toBe("before ${CANARY} after");
  });

  test.each([1, 2, 3, 4])("redacts a secret inside a longer base64 text at any alignment (%p leading bytes)", (lead) => {
    const encoded = btoa(`${"x".repeat(lead)}${CANARY} and more`);
    const out = redact(`token=${encoded}`, canary);
    expect(out).toContain("${CANARY}");
    // Six whole groups (18 of the secret's 20 bytes) were replaced: at most two bytes are left at the edges.
    const removed = `token=${encoded}`.length - (out.length - "${CANARY}".length);
    expect(removed).toBeGreaterThanOrEqual(24);
  });

  test.each([
    ["a console preview", `{token: "Zq7Can&ry+S3…"}`, `{token: "\${CANARY}…"}`],
    ["an HTML-escaped cut", "title Zq7Can&amp;ry…", "title ${CANARY}…"],
    ["three dots", "was Zq7C...", "was ${CANARY}…"],
  ])("redacts a secret's prefix that someone else's truncation left (%s)", (_, text, out) => {
    expect(redact(text, canary)).toBe(out);
  });

  test("redacts a secret caught half typed or more (a page echoing each key), leaving less than half alone", () => {
    const lines = [...CANARY].map((_, i) => `token typed ${CANARY.slice(0, i + 1)}`);
    const out = lines.map((l) => redact(l, canary));
    // The first nine characters (less than half of 20) say too little to leave out; from ten on, the reference stands in.
    expect(out.slice(0, 9)).toEqual(lines.slice(0, 9));
    expect(out.slice(9, 19)).toEqual(Array(10).fill("token typed ${CANARY}…"));
    expect(out[19]).toBe("token typed ${CANARY}");
    expect(redact(`was ${html(CANARY.slice(0, 12))} then`, canary)).toBe("was ${CANARY}… then");
  });

  test("leaves an ellipsis after text that does not start a secret alone", () => {
    expect(redact("Zq… and Zq7", canary)).toBe("Zq… and Zq7");
  });

  test("redacts a form-encoded secret holding a space", () => {
    expect(redact("q=open+sesame+42&x=1", new Map([["P", "open sesame 42"]]))).toBe("q=${P}&x=1");
  });

  test("redacts first, then shortens each page text the surface wrapped", () => {
    const page = `${"a".repeat(SHOWN_TEXT_MAX - 6)}${CANARY} tail`;
    const out = redact(`the page shows ${SHOWN_TEXT_OPEN}${page}${SHOWN_TEXT_CLOSE}; done`, canary);
    expect(out).toBe(`the page shows ${"a".repeat(SHOWN_TEXT_MAX - 6)}…; done`);
    expect(out).not.toContain("Zq7");
  });

  test("drops the wrapping characters of a text with no secrets and of a stray one", () => {
    expect(redact(`shows ${SHOWN_TEXT_OPEN}hello${SHOWN_TEXT_CLOSE} and ${SHOWN_TEXT_OPEN}x`, new Map())).toBe("shows hello and x");
  });
});

describe("shortenShown", () => {
  test("keeps a text within the bound as it is", () => {
    expect(shortenShown("short", 10)).toBe("short");
  });

  test("cuts at the bound with an ellipsis", () => {
    expect(shortenShown("abcdefghij", 4)).toBe("abcd…");
  });

  test("never cuts a reference in two", () => {
    expect(shortenShown("ab ${TOKEN} cd", 6)).toBe("ab …");
  });
});

describe("redact keeps references whole", () => {
  test("a value that is part of a variable's name leaves a reference as written alone, and redacting twice changes nothing", () => {
    const secrets = new Map([
      ["CLERK_USER", "clerk"],
      ["PW", "s3cret-pw"],
    ]);
    expect(redact("SAP refused the login of ${CLERK_USER} (clerk, s3cret-pw)", secrets)).toBe("SAP refused the login of ${CLERK_USER} (${CLERK_USER}, ${PW})");
    const once = redact("typed ${captured.clerk} as clerk into ${PW}", secrets);
    expect(once).toBe("typed ${captured.clerk} as ${CLERK_USER} into ${PW}");
    expect(redact(once, secrets)).toBe(once);
  });

  test("a literal `${…}` that is not a reference of the run is redacted like any text", () => {
    expect(
      redact(
        "the page shows ${s3cret-pw} and ${clerk}",
        new Map([
          ["PW", "s3cret-pw"],
          ["U", "clerk"],
        ]),
      ),
    ).toBe("the page shows ${${PW}} and ${${U}}");
  });
});

describe("redactError", () => {
  const secrets = new Map([["SECRET_TOKEN", "tok-4711-canary"]]);

  test("redacts a FlowproofError's message, hint and notes, keeping its code and name", () => {
    class LaunchError extends FlowproofError {}
    const error = new LaunchError({
      code: "app-launch",
      message: "`a.exe --token tok-4711-canary` exited",
      hint: "its stderr: bad tok-4711-canary",
      notes: [{ message: "tried tok-4711-canary" }],
    });
    const out = redactError(error, secrets) as FlowproofError;
    expect(out).toBeInstanceOf(FlowproofError);
    expect(out.code).toBe("app-launch");
    expect(out.name).toBe("LaunchError");
    expect(out.message).toBe("`a.exe --token ${SECRET_TOKEN}` exited");
    expect(out.diagnostics[0]).toMatchObject({ hint: "its stderr: bad ${SECRET_TOKEN}", notes: [{ message: "tried ${SECRET_TOKEN}" }] });
    expect(JSON.stringify(out)).not.toContain("canary");
    expect(out.cause).toBeUndefined();
  });

  test("redacts a plain error's message and passes anything else through", () => {
    expect((redactError(new TypeError("spawn tok-4711-canary failed"), secrets) as Error).message).toBe("spawn ${SECRET_TOKEN} failed");
    expect(redactError(42, secrets)).toBe(42);
  });
});

describe("stepsWithLearned", () => {
  const step = (id: string): TraceStep =>
    ({
      id,
      intent: 'Select Fin from the "Department" dropdown',
      action: { type: "type_text", params: { text: "Fin", select: true } },
      selectors: [],
      sync: { pre: [], post: [] },
    }) as unknown as TraceStep;
  test("merges what a step learned into its action's params and leaves the others alone", () => {
    const steps = stepsWithLearned([step("s0001"), step("s0002")], new Map([["s0002", { chosen: ["Finance"] }]]));
    expect(steps[0]!.action.params).toEqual({ text: "Fin", select: true });
    expect(steps[1]!.action.params).toEqual({ text: "Fin", select: true, chosen: ["Finance"] });
  });
  test("answers the steps unchanged when nothing was learned", () => {
    expect(stepsWithLearned([step("s0001")], undefined)).toEqual([step("s0001")]);
  });
});
