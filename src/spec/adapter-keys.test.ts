import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { keyRole } from "../plugins/adapter-api.ts";
import type { SurfaceKind } from "./surface-kinds.ts";
import { builtinCatalog, loadFlowText } from "../../test/support/surfaces.ts";

/** A project's own adapter, declared as a plugin would: an in-house terminal app. */
const TERM: SurfaceKind = {
  kind: "term",
  title: "the terminal app",
  capabilities: ["keyboard"],
  keys: {
    schema: Type.Object(
      {
        command: Type.String({ minLength: 1, ...keyRole({ recorded: true, references: "captured" }) }),
        columns: Type.Optional(Type.Integer({ minimum: 20, maximum: 400, ...keyRole({ recorded: true }) })),
        token: Type.Optional(Type.String(keyRole({ secret: true, references: "env" }))),
      },
      { additionalProperties: false },
    ) as never,
    check: ((keys: Record<string, unknown>) =>
      keys["command"] === "rm -rf /" ? [{ path: ["command"], message: "`command` must not erase the machine", hint: "command: ./app" }] : []) as never,
    refuse: {
      url: { message: "a terminal app has no start page", hint: "remove `url:`; the program is `command:`" },
      window_title: {
        message: "`window_title` is how a Windows program's window is found; a terminal app has none",
        hint: "size the terminal with `columns:` and `rows:`",
      },
    },
  },
};
const catalog = builtinCatalog([TERM]);
const load = (body: string, app = "term") => loadFlowText("t.flow.yaml", `name: T\napp: ${app}\n${body}steps:\n  - rules: Type x\n`, { catalog });
const problems = (body: string, app = "term") => {
  const r = load(body, app);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
};

describe("loadAdapterKeys", () => {
  test("keeps the keys as written, references raw", () => {
    const r = load("command: ./app --user ${USER_NAME}\ncolumns: 80\ntoken: ${TOKEN}\n");
    expect(r.ok && r.flow.keys).toEqual({ command: "./app --user ${USER_NAME}", columns: 80, token: "${TOKEN}" });
  });

  test.each<[string, string, string[]]>([
    ["a missing required key, at the app", "columns: 80\n", ["2:6 missing-key the flow needs `command`"]],
    ["a value out of range, at the value", "command: ./app\ncolumns: 5\n", ["4:10 bad-value `columns` must be a whole number from 20 to 400"]],
    [
      "a capture before any step",
      "command: ./app ${captured.x}\n",
      ["3:10 bad-reference `command` cannot use ${captured.…}: it is used when the flow starts, before any step has run"],
    ],
    ["a malformed reference", "command: ./app ${NOT CLOSED\n", ["3:10 bad-reference"]],
    ["the adapter's own check", "command: rm -rf /\n", ["3:10 bad-value `command` must not erase the machine"]],
    ["the adapter's words for a key it does not take", "command: ./app\nurl: http://x/\n", ["4:1 unknown-key a terminal app has no start page"]],
    [
      "another adapter's key",
      "command: ./app\nbrowser: {}\n",
      ["4:1 unsupported-feature `browser:` belongs to web flows (`app: web`); the flow is `app: term`"],
    ],
  ])("refuses %s", (_what, body, expected) => {
    const got = problems(body);
    expect(got.length).toBe(expected.length);
    got.forEach((g, i) => expect(g).toStartWith(expected[i]!));
  });

  test("a spelling of another app that no adapter takes at the top level is refused in the adapter's words", () => {
    expect(problems("command: ./app\nwindow_title: X\n")).toEqual([
      "4:1 unknown-key `window_title` is how a Windows program's window is found; a terminal app has none",
    ]);
  });

  test("a key of the project's adapter is refused by name on another app", () => {
    expect(problems("url: http://x/\ncolumns: 80\n", "web")).toEqual([
      "4:1 unsupported-feature `columns:` belongs to the terminal app (`app: term`); the flow is `app: web`",
    ]);
  });
});
