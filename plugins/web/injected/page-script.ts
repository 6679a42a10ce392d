// The page script's entry point (bundled by bundle.ts): installs the page API when run, and the
// dormant `flowproof codegen` listener (codegen.ts), which only a codegen session starts.
import { installPageApi } from "./page-api.ts";
import { installCodegen } from "./codegen.ts";

installPageApi();
installCodegen();
