// An adapter plugin for the in-house notes app (app.ts): flows with `app: notes` run on it.
// It imports only the plugin contract; every method is one attempt (the engine polls and waits).
import { AdapterUnavailableError, defineAdapter } from "flowproof";
import type { AppDriver, Attempt, Capability, Expectation, Reading, Selector } from "flowproof";

interface Screen {
  readonly title: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly buttons: readonly string[];
  readonly texts: readonly string[];
}

const CAPABILITIES: readonly Capability[] = ["pointer", "navigation"];

/** The label a step names: `Press the "Add" button` → "Add". Other rungs (css:, id:) mean nothing here. */
function labelOf(ladder: readonly Selector[]): string | undefined {
  const text = ladder.find((s) => s.tier === "text_anchor")?.payload["text"];
  return typeof text === "string" ? text : undefined;
}

const notFound = (what: string): Attempt<never> => ({ ok: false, failed: "not-found", detail: `${what} is not on the notes screen`, retryable: true });
const unsupported = (what: string): Attempt<never> => ({ ok: false, failed: "unsupported", detail: `the notes app has no ${what}`, retryable: false });

class NotesDriver implements AppDriver {
  readonly capabilities: ReadonlySet<Capability> = new Set(CAPABILITIES);
  #base: string | undefined;

  async #screen(): Promise<Screen> {
    if (this.#base === undefined) throw new Error("the notes app was not opened (the flow has no `url:`)");
    const res = await fetch(new URL("/api/screen", this.#base));
    return (await res.json()) as Screen;
  }

  async #post(path: string, body: object): Promise<Attempt> {
    const res = await fetch(new URL(path, this.#base), { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    return res.ok ? { ok: true, value: undefined } : { ok: false, failed: "not-found", detail: await res.text(), retryable: true };
  }

  async navigate(url: string, timeoutMs: number): Promise<Attempt> {
    try {
      const res = await fetch(new URL("/api/screen", url), { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) return { ok: false, failed: "not-found", detail: `${url} answered ${res.status}; is it the notes app?`, retryable: false };
    } catch (error) {
      return { ok: false, failed: "not-found", detail: `the notes app at ${url} is not reachable (${(error as Error).message})`, retryable: false };
    }
    this.#base = url;
    return { ok: true, value: undefined };
  }

  async reload(): Promise<Attempt> {
    return { ok: true, value: undefined };
  }

  async click(ladder: readonly Selector[]): Promise<Attempt> {
    const label = labelOf(ladder);
    if (label === undefined) return unsupported("css: or id: targets");
    if (!(await this.#screen()).buttons.includes(label)) return notFound(`the "${label}" button`);
    return this.#post("/api/press", { button: label });
  }

  async fill(ladder: readonly Selector[], text: string): Promise<Attempt> {
    const label = labelOf(ladder);
    if (label === undefined) return unsupported("css: or id: targets");
    if (!(label in (await this.#screen()).fields)) return notFound(`the "${label}" field`);
    return this.#post("/api/fill", { field: label, text });
  }

  async readText(ladder: readonly Selector[]): Promise<Attempt<string>> {
    const label = labelOf(ladder) ?? "";
    const screen = await this.#screen();
    const value = screen.fields[label] ?? screen.texts.find((t) => t.includes(label));
    return value === undefined ? notFound(`"${label}"`) : { ok: true, value };
  }

  async count(ladder: readonly Selector[]): Promise<number> {
    const label = labelOf(ladder) ?? "";
    const screen = await this.#screen();
    return [...Object.keys(screen.fields), ...screen.buttons, ...screen.texts].filter((t) => t === label).length;
  }

  async check(ladder: readonly Selector[], expect: Expectation): Promise<Reading> {
    const screen = await this.#screen();
    const label = labelOf(ladder);
    const all = screen.texts.join("\n");
    switch (expect.kind) {
      case "text_contains": {
        const seen = label === undefined ? all : (screen.fields[label] ?? "");
        return { pass: seen.includes(expect.text), actual: seen.slice(0, 200) };
      }
      case "text_absent":
        return { pass: !all.includes(expect.text), actual: all.slice(0, 200) };
      case "title":
        return { pass: expect.op === "equals" ? screen.title === expect.value : screen.title.includes(expect.value), actual: screen.title };
      case "empty": {
        const value = label === undefined ? undefined : screen.fields[label];
        return { pass: value !== undefined && (value === "") === expect.empty, actual: value === undefined ? "no such field" : JSON.stringify(value) };
      }
      case "visible": {
        const shown = label !== undefined && (label in screen.fields || screen.buttons.includes(label) || screen.texts.includes(label));
        return { pass: shown === expect.visible, actual: shown ? "shown" : "not shown" };
      }
      default:
        return { pass: false, actual: `the notes adapter cannot check ${expect.kind}` };
    }
  }

  hover = async (): Promise<Attempt> => unsupported("hover");
  typeFocused = async (): Promise<Attempt> => unsupported("keyboard focus");
  pressKey = async (): Promise<Attempt> => unsupported("keyboard");
  select = async (): Promise<Attempt> => unsupported("dropdowns");
  setChecked = async (): Promise<Attempt> => unsupported("checkboxes");

  async environment(): Promise<{ os: string; resolution: [number, number] }> {
    return { os: `${process.platform} (notes app over HTTP)`, resolution: [0, 0] };
  }

  async close(): Promise<void> {}
}

export const plugin = defineAdapter({
  kind: "notes",
  capabilities: CAPABILITIES,
  open: async () => ({
    launch: async () => {
      if (typeof fetch !== "function") throw new AdapterUnavailableError("this runtime has no fetch()", "run flowproof on Bun or a current Node");
      return new NotesDriver();
    },
    close: async () => {},
  }),
});
