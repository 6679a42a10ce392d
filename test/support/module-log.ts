// Preloaded into a flowproof process by a test (`bun --preload`): lists the modules it loaded, and
// writes them as a JSON array of paths to $FLOWPROOF_TEST_MODULE_LOG when it exits. Bun has no list
// of loaded ES modules, so this notes every file that imports something (a module is loaded
// once something imports it or it imports something), every relative import resolved against
// its importer, and, at exit, every CommonJS module in `require.cache`.
import { plugin } from "bun";
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const seen = new Set<string>();
plugin({
  name: "flowproof-test-module-log",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.importer) seen.add(args.importer);
      seen.add(args.path.startsWith(".") && args.importer ? resolve(dirname(args.importer), args.path) : args.path);
      return undefined;
    });
  },
});

process.on("exit", () => {
  for (const path of Object.keys(require.cache)) seen.add(path);
  const out = process.env["FLOWPROOF_TEST_MODULE_LOG"];
  if (out) writeFileSync(out, JSON.stringify([...seen].sort()));
});
