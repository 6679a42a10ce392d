// `bun scripts/build-injected.ts`: builds the page script into plugins/web/injected/dist/ (gitignored),
// where the npm package (`prepack`) and the single-file executables (scripts/build.ts) take it from.
import { relative } from "node:path";
import { writeBuiltPageScript } from "../plugins/web/injected/bundle.ts";

if (import.meta.main) {
  const path = writeBuiltPageScript();
  console.log(`built the page script: ${relative(process.cwd(), path)}`);
}
