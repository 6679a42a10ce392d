// The vision surface: `app: vision` attaches to a window by `window.title` and sees only its pixels
// (X11 or Win32 capture, OCR with tesseract.js, real input). Not registered as a built-in yet: the
// adapter contract's config schema and grammar registration are what it waits for.
import { defineAdapter, type AdapterPlugin, type Capability } from "../../src/plugins/api.ts";
import { VisionSession } from "./session.ts";

export const CAPABILITIES: readonly Capability[] = ["pointer", "keyboard", "screenshot"];

export const plugin: AdapterPlugin = defineAdapter({ kind: "vision", capabilities: CAPABILITIES, open: async () => new VisionSession() });

export { VisionConfigSchema } from "./config.ts";
export { VisionDriver, type VisionConfig } from "./driver.ts";
export { VisionSession, attach } from "./session.ts";
