// The 30 steps of bench/flows/bench.flow.yaml as a playwright-core script, shared by the in-process
// bench (replay-vs-playwright.ts) and the whole-process one (whole-process.ts, which runs them under
// Node in playwright-process.ts). Plain Node APIs only: this module is bundled for Node.
// flow-drift.ts checks that they still match the flow file.
import type { Locator, Page } from "playwright-core";

/** Same bound as flowproof's default assertion timeout. */
const ASSERT_TIMEOUT_MS = 10_000;
/** flowproof's poll backoff (src/engine/poll.ts), reused for the Playwright retrying assertions. */
const BACKOFF_MS = [0, 10, 20, 50, 100, 100, 250];

// The 30 steps, once per contender. `text` must equal the flow file's step (checked at start).

export type Kind = "assert" | "wait" | "type" | "replace" | "select" | "check" | "click" | "press";
export type Mode = "fill" | "keys";

export interface BenchStep {
  readonly text: string;
  readonly kind: Kind;
  /** Characters typed (type/replace steps). */
  readonly chars?: number;
  readonly pw: (page: Page, mode: Mode) => Promise<void>;
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + ASSERT_TIMEOUT_MS;
  for (let i = 0; ; i++) {
    if (await probe().catch(() => false)) return;
    const wait = BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]!;
    if (performance.now() + wait >= deadline) throw new Error(`timed out after ${ASSERT_TIMEOUT_MS} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const shows = (loc: Locator, text: string) =>
  until(`${String(loc)} to show ${JSON.stringify(text)}`, async () => ((await loc.textContent()) ?? "").includes(text));
const rowCount = (page: Page, n: number) => until(`${n} visible order rows`, async () => (await page.locator("#orders tbody tr:visible").count()) === n);
/** Type into an (empty) field: `fill` sets the value in one go; `pressSequentially` sends a keystroke per character. */
const typeInto = (loc: Locator, text: string, mode: Mode) => (mode === "fill" ? loc.fill(text) : loc.pressSequentially(text));

function typeStep(label: string, text: string): BenchStep {
  return { text: `Type ${text} into the "${label}" field`, kind: "type", chars: text.length, pw: (page, mode) => typeInto(page.getByLabel(label), text, mode) };
}

export const STEPS: readonly BenchStep[] = [
  {
    text: "assert: page title is Create your account - Acme",
    kind: "assert",
    pw: (page) => until("the page title", async () => (await page.title()) === "Create your account - Acme"),
  },
  typeStep("First name", "Ada"),
  typeStep("Last name", "Lovelace"),
  typeStep("Email", "ada.lovelace@example.com"),
  typeStep("Phone", "+44 20 7946 0958"),
  typeStep("Company", "Analytical Engines Ltd"),
  typeStep("Street address", "12 Marylebone Road"),
  typeStep("City", "London"),
  {
    text: 'Select United Kingdom from the "Country" dropdown',
    kind: "select",
    pw: async (page) => void (await page.getByLabel("Country").selectOption({ label: "United Kingdom" })),
  },
  { text: 'Select Team from the "Plan" dropdown', kind: "select", pw: async (page) => void (await page.getByLabel("Plan").selectOption({ label: "Team" })) },
  { text: 'Click "Annual billing"', kind: "click", pw: (page) => page.getByRole("button", { name: "Annual billing" }).click() },
  { text: 'assert: the "css:#price" shows $480 / year', kind: "assert", pw: (page) => shows(page.locator("#price"), "$480 / year") },
  { text: 'Check the "Subscribe to the newsletter" checkbox', kind: "check", pw: (page) => page.getByLabel("Subscribe to the newsletter").check() },
  { text: 'Check the "I accept the terms of service" checkbox', kind: "check", pw: (page) => page.getByLabel("I accept the terms of service").check() },
  typeStep("Notes", "Please call after 5pm on weekdays"),
  {
    text: 'Replace the "City" field with Cambridge',
    kind: "replace",
    chars: "Cambridge".length,
    // flowproof selects the field's text and types over it; `selectText` + keystrokes is the same thing.
    pw: async (page, mode) => {
      const city = page.getByLabel("City");
      if (mode === "fill") return city.fill("Cambridge");
      await city.selectText();
      await city.pressSequentially("Cambridge");
    },
  },
  {
    text: 'assert: the "City" field contains Cambridge',
    kind: "assert",
    pw: (page) => until("the City field to contain Cambridge", async () => (await page.getByLabel("City").inputValue()).includes("Cambridge")),
  },
  {
    text: 'assert: the "Create account" is enabled',
    kind: "assert",
    pw: (page) => until("Create account to be enabled", () => page.getByRole("button", { name: "Create account" }).isEnabled()),
  },
  { text: 'Press the "Create account" button', kind: "click", pw: (page) => page.getByRole("button", { name: "Create account" }).click() },
  { text: "Wait until page shows Account created", kind: "wait", pw: (page) => page.getByText("Account created").waitFor({ timeout: 60_000 }) },
  { text: 'assert: the "css:#result" shows Ada Lovelace', kind: "assert", pw: (page) => shows(page.locator("#result"), "Ada Lovelace") },
  { text: 'Click "View your orders"', kind: "click", pw: (page) => page.getByRole("link", { name: "View your orders" }).click() },
  {
    text: "assert: page url contains /orders.html",
    kind: "assert",
    pw: (page) => until("the url to contain /orders.html", async () => page.url().includes("/orders.html")),
  },
  { text: 'assert: the "css:#orders tbody tr" appears 5 times', kind: "assert", pw: (page) => rowCount(page, 5) },
  {
    text: 'assert: the "css:#orders tbody tr:nth-child(3) td.status" shows Shipped',
    kind: "assert",
    pw: (page) => shows(page.locator("#orders tbody tr:nth-child(3) td.status"), "Shipped"),
  },
  typeStep("Search orders", "1004"),
  { text: "Press Enter", kind: "press", pw: (page) => page.keyboard.press("Enter") },
  { text: 'assert: the "css:#orders tbody tr" appears 1 times', kind: "assert", pw: (page) => rowCount(page, 1) },
  { text: 'Click "Show details"', kind: "click", pw: (page) => page.getByRole("button", { name: "Show details" }).click() },
  { text: 'assert: the "css:#detail" shows Total: $1,250.00', kind: "assert", pw: (page) => shows(page.locator("#detail"), "Total: $1,250.00") },
];
