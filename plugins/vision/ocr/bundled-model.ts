// The English OCR model that ships with flowproof, as a path: the npm package's file when run from
// source or the npm package, a file embedded in the executable when compiled (`with { type: "file" }`).
// Imported dynamically, so a missing package is reported by the locator instead of failing the load.
/// <reference path="./modules.d.ts" />
import path from "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" with { type: "file" };

export const BUNDLED_MODEL_PATH: string = path;
