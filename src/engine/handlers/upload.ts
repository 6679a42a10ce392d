// `upload`: set a file on a (possibly hidden) file input. A relative path resolves from the working
// directory at execution; a missing file fails naming the path, and one outside the run's roots
// (`--root`, the MCP server's root; symlinks followed) is refused before any byte is read.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { errored, failed, handlerFor, runAction } from "./shared.ts";
import { resolveText } from "../templates.ts";
import { ANYWHERE, OutsideRootError } from "../../plugins/file-paths.ts";

export const upload = handlerFor(["upload"], async (step, ctx) => {
  const raw = step.action.params.path;
  if (raw === "") return failed("the upload step has no file path");
  const written = resolveText(raw, ctx).value;
  const paths = ctx.paths ?? ANYWHERE;
  if (!paths.allows(resolve(process.cwd(), written))) return failed(new OutsideRootError("the file to upload", JSON.stringify(written), paths.roots).message);
  const path = resolve(process.cwd(), written);
  if (!existsSync(path) || !statSync(path).isFile())
    return failed(`the file to upload does not exist: ${path} (relative paths resolve from the working directory, ${process.cwd()})`);
  const driver = ctx.driver;
  if (!driver.upload) return errored("this app's driver cannot upload files (`upload`); Upload needs a surface with file inputs");
  const uploadOnce = driver.upload.bind(driver);
  return runAction(step, ctx, () => uploadOnce(step.selectors, path));
});
