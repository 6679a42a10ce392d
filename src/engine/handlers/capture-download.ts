// `capture_download`: Wait until the download completes as <name>: waits for exactly one download
// to finish and remembers its file path as ${captured.<name>}.
import type { DownloadState } from "../../plugins/api.ts";
import { errored, failed, handlerFor, passed } from "./shared.ts";
import { poll } from "../poll.ts";
import { DEFAULT_WAIT_TIMEOUT_MS } from "../compile.ts";

export const captureDownload = handlerFor(["capture_download"], async (step, ctx) => {
  const { name, timeout_ms: timeoutMs = DEFAULT_WAIT_TIMEOUT_MS } = step.action.params;
  const driver = ctx.driver;
  if (!driver.downloads)
    return errored("this app's driver has no downloads (`downloads`): Wait until the download completes needs a surface that downloads files");
  const read = driver.downloads.bind(driver);
  const r = await poll<DownloadState>(ctx.clock, timeoutMs, async () => {
    const s = read(false);
    // Settled: nothing still running and something finished (or was cancelled).
    const settled = s.inProgress === 0 && (s.completed.length > 0 || s.canceled.length > 0);
    return settled ? { done: true, value: read(true) } : { done: false, retryable: true, last: s };
  });
  const s = r.value;
  if (!r.ok) return failed(`no download completed within ${timeoutMs} ms${s.inProgress > 0 ? ` (${s.inProgress} still in progress)` : " (none started)"}`);
  if (s.canceled.length > 0 && s.completed.length === 0) return failed(`the download of ${s.canceled.join(", ")} was cancelled`);
  if (s.completed.length !== 1) return failed(`expected exactly one download, but ${s.completed.length} completed: ${s.completed.join(", ")}`);
  ctx.captures.set(name, s.completed[0]!);
  return passed();
});
