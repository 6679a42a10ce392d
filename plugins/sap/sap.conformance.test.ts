// Runs the driver conformance suite against the SAP GUI surface over the in-memory SAP GUI
// (plugins/sap/fake-engine.ts), on its transaction ZFORM: the form every UI driver is checked on.
// The same cases run against SAP GUI Scripting for real, through COM under Wine, in
// test/e2e/sap-conformance.test.ts.
import { runDriverConformance } from "../../test/conformance/driver.ts";
import { SAP_GAPS, SAP_FORM_IDS } from "../../test/conformance/surfaces.ts";
import { FakeSap } from "./fake-engine.ts";
import { launchSapDriver } from "./launch.ts";

runDriverConformance({
  name: "sap (in-memory SAP GUI)",
  launch: async () => {
    const sap = new FakeSap({ users: { CLERK: "clerk-pass" }, frames: true });
    const driver = await launchSapDriver(sap, { connection: "TS3", login: { user: "clerk", password: "clerk-pass" } }, { log: () => undefined });
    const r = await driver.navigate("/nZFORM", 1_000);
    if (!r.ok) throw new Error(`ZFORM did not open: ${r.detail}`);
    return { driver, close: () => driver.close() };
  },
  ids: SAP_FORM_IDS,
  expectations: SAP_GAPS,
});
