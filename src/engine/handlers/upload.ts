// `upload`: set a file on a (possibly hidden) file input. A relative path resolves from the working
// directory at execution; a missing file fails naming the path.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { errored, failed, handlerFor, runAction } from "./shared.ts";
import { resolveText } from "../templates.ts";

export const upload = handlerFor(["upload"], async (step, ctx) => {
  const raw = step.action.params.path;
  if (raw === "") return failed("the upload step has no file path");
  const path = resolve(process.cwd(), resolveText(raw, ctx).value);
  if (!existsSync(path) || !statSync(path).isFile()) return failed(`the file to upload does not exist: ${path} (relative paths resolve from the working directory, ${process.cwd()})`);
  const driver = ctx.driver;
  if (!driver.upload) return errored("this app cannot upload files; Upload is web only");
  const uploadOnce = driver.upload.bind(driver);
  return runAction(step, ctx, () => uploadOnce(step.selectors, path));
});
