// The page script's entry point (bundled by bundle.ts): installs the page API when run.
import { installPageApi } from "./page-api.ts";

installPageApi();
