// Finding the OCR model (tesseract's eng.traineddata, LSTM "best_int", gzipped) and reading its
// bytes. Never downloads: a model that is nowhere is a `no-ocr-model` error naming every place looked in.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { AdapterUnavailableError } from "../../../src/plugins/api.ts";

/** The model's file name, as tesseract and the npm package name it. */
export const MODEL_FILE = "eng.traineddata.gz";
/** Names a model file or a directory holding one; overrides the bundled model. */
export const MODEL_ENV = "FLOWPROOF_OCR_MODEL";
/** The folder beside a compiled executable where a model may be placed instead. */
export const BESIDE_EXECUTABLE_DIR = "flowproof-ocr";

/** One place the model may be: a file path, or why there is none (a package that is not installed). */
export type ModelPlace = { readonly label: string; readonly path: string } | { readonly label: string; readonly problem: string };

/** A model file path for `path`: itself when a file, else `<path>/eng.traineddata(.gz)`. */
export function modelFileIn(
  path: string,
  exists: (p: string) => boolean = existsSync,
  isDir: (p: string) => boolean = (p) => statSync(p).isDirectory(),
): string {
  if (!exists(path) || !isDir(path)) return path;
  const plain = join(path, "eng.traineddata");
  return exists(join(path, MODEL_FILE)) || !exists(plain) ? join(path, MODEL_FILE) : plain;
}

/** The model was found nowhere (`no-ocr-model`): the run stops with exit code 2 before any step. */
export class OcrModelMissingError extends AdapterUnavailableError {
  constructor(message: string, hint: string) {
    super(message, hint, { code: "no-ocr-model" });
  }
}

/**
 * Pure: the first place whose file exists, or an OcrModelMissingError listing every place and why
 * it did not serve. An explicit `FLOWPROOF_OCR_MODEL` is the only place looked in when it is set.
 */
export function chooseModel(places: readonly ModelPlace[], exists: (p: string) => boolean): string {
  for (const p of places) if ("path" in p && exists(p.path)) return p.path;
  const looked = places.map((p) => ("path" in p ? `${p.label} (${p.path}: not there)` : `${p.label} (${p.problem})`));
  throw new OcrModelMissingError(
    `no OCR model found; looked in: ${looked.join("; ")}`,
    `install flowproof's dependencies (the @tesseract.js-data/eng package), place ${MODEL_FILE} in a "${BESIDE_EXECUTABLE_DIR}" folder beside the executable, or set ${MODEL_ENV} to the model file (or a folder holding it)`,
  );
}

/** The places to look in, in order, for this process. */
export async function modelPlaces(env: Readonly<Record<string, string | undefined>> = process.env, execPath: string = process.execPath): Promise<ModelPlace[]> {
  const explicit = env[MODEL_ENV];
  if (explicit !== undefined && explicit !== "") return [{ label: MODEL_ENV, path: modelFileIn(explicit) }];
  const places: ModelPlace[] = [];
  try {
    const { BUNDLED_MODEL_PATH } = await import("./bundled-model.ts");
    places.push({ label: "the bundled model", path: BUNDLED_MODEL_PATH });
  } catch (error) {
    places.push({ label: "the bundled model", problem: `the @tesseract.js-data/eng package is not installed: ${(error as Error).message}` });
  }
  places.push({ label: "beside the executable", path: join(dirname(execPath), BESIDE_EXECUTABLE_DIR, MODEL_FILE) });
  return places;
}

/** The model's bytes (as stored: gzipped or not), from the first place that has it. */
export async function readModel(
  env?: Readonly<Record<string, string | undefined>>,
  execPath?: string,
): Promise<{ readonly path: string; readonly bytes: Uint8Array }> {
  const path = chooseModel(await modelPlaces(env, execPath), existsSync);
  return { path, bytes: new Uint8Array(readFileSync(path)) };
}
