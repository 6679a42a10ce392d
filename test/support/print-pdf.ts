// Prints an HTML page to PDF in real Chromium over the DevTools protocol (`Page.printToPDF`), the
// way a test-management tool's "print to PDF" export is made. Test support only; run the tests
// that use it under the shared browser lock.
import { launchBrowser } from "../../plugins/web/launch.ts";
import { Connection } from "../../plugins/web/cdp/connection.ts";
import { requireChromium } from "./chromium.ts";

/** The bytes of `html` printed to an A4 PDF without headers or footers. */
export async function printHtmlToPdf(html: string): Promise<Uint8Array> {
  const browser = await launchBrowser(requireChromium());
  try {
    const connection = await Connection.connect(browser.wsUrl);
    try {
      const { targetId } = await connection.send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await connection.send("Target.attachToTarget", { targetId, flatten: true });
      const s = connection.session(sessionId);
      await s.send("Page.enable");
      const loaded = s.waitFor("Page.loadEventFired", 20_000);
      await s.send("Page.navigate", { url: `data:text/html;charset=utf-8,${encodeURIComponent(html)}` });
      await loaded;
      const { data } = await s.send("Page.printToPDF", { paperWidth: 8.27, paperHeight: 11.69, displayHeaderFooter: false, printBackground: true });
      return new Uint8Array(Buffer.from(data, "base64"));
    } finally {
      await connection.close();
    }
  } finally {
    await browser.close();
  }
}
