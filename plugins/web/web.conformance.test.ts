// Runs the AppDriver conformance suite against the web adapter in real Chromium. Covers the
// driver, the injected page API and the CDP connection end to end.
import { requireChromium } from "../../test/support/chromium.ts";
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { plugin } from "./index.ts";

requireChromium();
runDriverConformance({ name: "web", open: () => plugin.open() });
