// The part of the plugin contract that starting a browser or another program needs, and nothing
// else: light enough to load before the rest of flowproof, so a command line can start the browser
// a run will surely use while the run's own modules still load (plugins/web/prestart.ts). api.ts
// re-exports all of it.
export { FlowproofError } from "../diagnostics/diagnostic.ts";
/** What a plugin starts dies with flowproof: `guardGroup` however it ends, `killAtExit` when it exits. */
export { guardDir, guardGroup, killAtExit } from "./group-guard.ts";
