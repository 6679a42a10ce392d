// The prelude of a browser end-to-end test file: Chromium is required (a missing browser fails
// the file with instructions, never skips it), the fixture page server runs, and a throwaway
// project directory exists; both go away after the file's last test.
import { afterAll } from "bun:test";
import { requireChromium } from "./chromium.ts";
import { startServer, type TestServer } from "./server.ts";
import { tmpProject, type TmpProject } from "./tmp-project.ts";

export interface WebE2e {
  readonly server: TestServer;
  readonly project: TmpProject;
}

/** Call at the top level of a test file: `const { server, project } = await webE2e();`. */
export async function webE2e(): Promise<WebE2e> {
  requireChromium();
  const server = await startServer();
  const project = tmpProject();
  afterAll(() => {
    server.stop();
    project.remove();
  });
  return { server, project };
}
