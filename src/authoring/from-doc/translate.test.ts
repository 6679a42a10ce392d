import { at } from "../../../test/support/surfaces.ts";
import { describe, expect, test } from "bun:test";
import { parseAssertion, parseStep } from "../../grammar/index.ts";
import type { ChatMessage, ModelClient } from "../provider.ts";
import { GRAMMAR_ACTIONS, GRAMMAR_ASSERTIONS, checkReply, translatePrompt, translateStep, type TranslateRequest } from "./translate.ts";

const req = (action: string, extra: Partial<TranslateRequest> = {}): TranslateRequest => ({
  step: { index: 2, action, expected: "The form shows", where: "row 3" },
  pending: { action: true, expected: true },
  app: "web",
  flowName: "Log in",
  ...extra,
});

/** A recorded model client: replies in order, every request kept. */
function recorded(...replies: string[]): ModelClient & { calls: (readonly ChatMessage[])[] } {
  const calls: (readonly ChatMessage[])[] = [];
  return {
    backend: "openai-compatible",
    model: "recorded",
    calls,
    complete: async (_system, messages) => {
      calls.push([...messages]);
      return replies[Math.min(calls.length - 1, replies.length - 1)]!;
    },
  };
}

describe("the grammar the model is shown", () => {
  test.each(GRAMMAR_ACTIONS.map((s) => [s]))("action %j parses", (s) => {
    expect(parseStep(s, at("web")).ok).toBe(true);
  });
  test.each(GRAMMAR_ASSERTIONS.map((s) => [s]))("assertion %j parses", (s) => {
    expect(parseAssertion(s, at("web")).ok).toBe(true);
  });
});

describe("translatePrompt", () => {
  test("opens with the STEP line and says what to translate", () => {
    const text = translatePrompt(req("Open the login page", { pending: { action: false, expected: true } }));
    expect(text.split("\n")[0]).toBe("STEP: Open the login page");
    expect(text).toContain("EXPECTED RESULT: The form shows");
    expect(text).toContain("TRANSLATE: the assertion only");
  });
});

describe("checkReply", () => {
  test("takes steps and an assertion that parse", () => {
    expect(
      checkReply(
        '```json\n{"steps": ["Go to /login", "Press Enter"], "assert": "page shows Sign in", "another_app": null, "unclear": null}\n```',
        req("Open the login page"),
      ),
    ).toEqual({
      translation: { rules: ["Go to /login", "Press Enter"], assert: "page shows Sign in" },
      errors: [],
    });
  });

  test("names each line that does not parse, with the grammar's hint", () => {
    const r = checkReply('{"steps": ["Click Login"], "assert": "the form is shown"}', req("Log in"));
    expect(r.translation).toEqual({});
    expect(r.errors).toEqual([
      'steps[0] `Click Login` does not parse: `Click` needs a quoted target. Hint: quote the text, e.g. `Click "Login"`',
      '"assert" `the form is shown` does not parse: `the form is shown` matches no assertion. Hint: ' +
        (parseAssertion("the form is shown", at("web")) as { error: { hint: string } }).error.hint,
    ]);
  });

  test("a translation that drops a secret reference is refused", () => {
    const r = checkReply('{"steps": ["Type hunter2 into the \\"Password\\" field"], "assert": null}', req("Enter password ${PASSWORD}"));
    expect(r.errors).toEqual(["keep ${PASSWORD} exactly as written in the step; it stands for a secret"]);
  });

  test("another app or an unclear step is an answer, not an error", () => {
    expect(checkReply('{"steps": [], "another_app": "Outlook"}', req("Confirm the booking"))).toEqual({ translation: { anotherApp: "Outlook" }, errors: [] });
    expect(checkReply('{"steps": [], "assert": null, "unclear": "which record?"}', req("Pick the record"))).toEqual({
      translation: { note: "the model: which record?" },
      errors: [],
    });
  });

  test("not JSON is an error", () => {
    expect(checkReply("Sure! Click the button.", req("x")).errors[0]).toContain("not valid JSON");
  });
});

describe("translateStep", () => {
  test("one call when the reply parses", async () => {
    const client = recorded('{"steps": ["Go to /login"], "assert": "page shows Sign in"}');
    expect(await translateStep(client, req("Open the login page"))).toEqual({
      translation: { rules: ["Go to /login"], assert: "page shows Sign in" },
      calls: 1,
    });
  });

  test("retries once in the same conversation with the parser's errors", async () => {
    const client = recorded('{"steps": ["Click Login"], "assert": null}', '{"steps": ["Click \\"Login\\""], "assert": null}');
    const r = await translateStep(client, req("Log in"));
    expect(r).toEqual({ translation: { rules: ['Click "Login"'] }, calls: 2 });
    expect(client.calls[1]!.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(client.calls[1]![2]!.content).toContain("`Click` needs a quoted target");
  });

  test("after the retry, keeps what parses and says why the rest was not kept", async () => {
    const client = recorded('{"steps": ["Click Login"], "assert": "page shows Welcome"}');
    const r = await translateStep(client, req("Log in"));
    expect(r.calls).toBe(2);
    expect(r.translation.rules).toBeUndefined();
    expect(r.translation.assert).toBe("page shows Welcome");
    expect(r.translation.note).toContain("the model's translation did not parse: steps[0] `Click Login`");
  });
});
