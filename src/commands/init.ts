// `flowproof init`: scaffolds a project — an example flow with its own local page (so it records
// and replays offline), and a `.gitignore` entry for `.flowproof/` (run bundles). Never
// overwrites a file: what exists is reported as skipped. Never prints.
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface InitOptions {
  /** The project directory (created when missing); default the working directory. */
  readonly dir?: string;
}

export interface InitResult {
  readonly dir: string;
  /** Files written or extended, relative to `dir`. */
  readonly created: readonly string[];
  /** Files left alone because they already existed. */
  readonly skipped: readonly string[];
}

export const EXAMPLE_FLOW = "example.flow.yaml";
const EXAMPLE_PAGE = "example-page.html";
const IGNORE_ENTRY = ".flowproof/";

const FLOW = `# yaml-language-server: $schema=https://flowproof.dev/schema/flow.schema.json
# An example flow: record it with \`flowproof record ${EXAMPLE_FLOW}\`, then replay it with
# \`flowproof run ${EXAMPLE_FLOW}\`. Point \`url:\` at your own app to start testing it.
name: Greet a visitor
app: web
url: ${EXAMPLE_PAGE}
steps:
  - rules: Type Ada into the "Your name" field
  - rules: Press the "Greet" button
  - assert: page shows Hello, Ada!
`;

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Greeter</title></head>
<body>
<h1>Greeter</h1>
<label>Your name <input id="name"></label>
<button id="greet">Greet</button>
<p id="greeting"></p>
<script>
  document.getElementById("greet").addEventListener("click", () => {
    document.getElementById("greeting").textContent = "Hello, " + document.getElementById("name").value + "!";
  });
</script>
</body>
</html>
`;

export function init(options: InitOptions = {}): InitResult {
  const dir = resolve(options.dir ?? ".");
  mkdirSync(dir, { recursive: true });
  const created: string[] = [];
  const skipped: string[] = [];
  for (const [name, text] of [
    [EXAMPLE_FLOW, FLOW],
    [EXAMPLE_PAGE, PAGE],
  ] as const) {
    const path = join(dir, name);
    if (existsSync(path)) skipped.push(name);
    else {
      writeFileSync(path, text);
      created.push(name);
    }
  }
  const ignore = join(dir, ".gitignore");
  if (!existsSync(ignore)) {
    writeFileSync(ignore, `# flowproof run bundles (result.json, junit.xml, report.html)\n${IGNORE_ENTRY}\n`);
    created.push(".gitignore");
  } else {
    const text = readFileSync(ignore, "utf8");
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    if (lines.includes(IGNORE_ENTRY) || lines.includes(".flowproof") || lines.includes("/.flowproof/")) skipped.push(".gitignore");
    else {
      appendFileSync(ignore, `${text.endsWith("\n") || text === "" ? "" : "\n"}${IGNORE_ENTRY}\n`);
      created.push(".gitignore");
    }
  }
  return { dir, created, skipped };
}
