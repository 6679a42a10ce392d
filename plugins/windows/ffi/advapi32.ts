// The Windows Credential Manager through bun:ffi (advapi32 CredWriteW / CredReadW / CredDeleteW):
// generic credentials kept by the OS for the user, never in a file of ours. advapi32 opens on
// first use; the CREDENTIALW layout is pure and tested anywhere.
import { dlopen, FFIType, ptr, read, toArrayBuffer, type Pointer } from "bun:ffi";
import { FlowproofError } from "../../../src/plugins/api.ts";
import { wstr } from "./wide.ts";

export const CRED_TYPE_GENERIC = 1;
/** Kept for this user on this machine across logons. */
export const CRED_PERSIST_LOCAL_MACHINE = 2;
const ERROR_NOT_FOUND = 1168;
/** CREDENTIALW on x64. */
export const CREDENTIAL_SIZE = 80;

/** One generic credential: the user name and a secret blob (bytes). */
export interface StoredCredential {
  readonly target: string;
  readonly user: string;
  readonly secret: Uint8Array;
}

/**
 * Pure: the CREDENTIALW bytes for a generic credential whose strings and blob sit at the given
 * addresses (Flags 0, Type GENERIC, TargetName 8, CredentialBlobSize 32, CredentialBlob 40,
 * Persist 48, UserName 72).
 */
export function encodeCredential(targetAddr: number, userAddr: number, blobAddr: number, blobSize: number): Uint8Array {
  const out = new Uint8Array(CREDENTIAL_SIZE);
  const v = new DataView(out.buffer);
  v.setUint32(4, CRED_TYPE_GENERIC, true);
  v.setBigUint64(8, BigInt(targetAddr), true);
  v.setUint32(32, blobSize, true);
  v.setBigUint64(40, BigInt(blobAddr), true);
  v.setUint32(48, CRED_PERSIST_LOCAL_MACHINE, true);
  v.setBigUint64(72, BigInt(userAddr), true);
  return out;
}

/** Pure: where a CREDENTIALW's user name and blob are. */
export function decodeCredential(bytes: Uint8Array): { userAddr: number; blobAddr: number; blobSize: number } {
  const v = new DataView(bytes.buffer, bytes.byteOffset, CREDENTIAL_SIZE);
  return { userAddr: Number(v.getBigUint64(72, true)), blobAddr: Number(v.getBigUint64(40, true)), blobSize: v.getUint32(32, true) };
}

function open() {
  return dlopen("advapi32.dll", {
    CredWriteW: { args: [FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    CredReadW: { args: [FFIType.ptr, FFIType.u32, FFIType.u32, FFIType.ptr], returns: FFIType.i32 },
    CredDeleteW: { args: [FFIType.ptr, FFIType.u32, FFIType.u32], returns: FFIType.i32 },
    CredFree: { args: [FFIType.ptr], returns: FFIType.void },
  }).symbols;
}
function openKernel() {
  return dlopen("kernel32.dll", { GetLastError: { args: [], returns: FFIType.u32 } }).symbols;
}

let lib: ReturnType<typeof open> | undefined;
let kernel: ReturnType<typeof openKernel> | undefined;
const advapi = (): ReturnType<typeof open> => (lib ??= open());
const lastError = (): number => (kernel ??= openKernel()).GetLastError();

/** A Credential Manager call failed (code `credential-store`); `win32Error` is the Win32 error. */
export class CredentialStoreError extends FlowproofError {
  readonly win32Error: number;
  constructor(call: string, win32Error: number) {
    super({
      code: "credential-store",
      message: `${call} failed with Win32 error ${win32Error}`,
      hint: "check that this Windows user may use the Credential Manager (Control Panel → Credential Manager); `flowproof config sap --delete` removes a damaged entry",
    });
    this.win32Error = win32Error;
  }
}

/** Stores (or replaces) a generic credential for this user on this machine. */
export function writeCredential(target: string, user: string, secret: Uint8Array): void {
  const t = wstr(target);
  const u = wstr(user);
  const blob = secret.byteLength > 0 ? secret : new Uint8Array(1);
  const cred = encodeCredential(Number(ptr(t)), Number(ptr(u)), Number(ptr(blob)), secret.byteLength);
  if (advapi().CredWriteW(cred, 0) === 0) throw new CredentialStoreError("CredWriteW", lastError());
}

/** The generic credential stored under `target`, or undefined when there is none. */
export function readCredential(target: string): StoredCredential | undefined {
  const out = new BigUint64Array(1);
  if (advapi().CredReadW(wstr(target), CRED_TYPE_GENERIC, 0, out) === 0) {
    const code = lastError();
    if (code === ERROR_NOT_FOUND) return undefined;
    throw new CredentialStoreError("CredReadW", code);
  }
  const p = Number(out[0]) as Pointer;
  try {
    const bytes = new Uint8Array(toArrayBuffer(p, 0, CREDENTIAL_SIZE).slice(0));
    const { userAddr, blobAddr, blobSize } = decodeCredential(bytes);
    let n = 0;
    while (userAddr !== 0 && n < 1024 && read.u16(userAddr as Pointer, n * 2) !== 0) n++;
    const user = userAddr === 0 ? "" : Buffer.from(toArrayBuffer(userAddr as Pointer, 0, n * 2)).toString("utf16le");
    const secret = blobSize === 0 ? new Uint8Array(0) : new Uint8Array(toArrayBuffer(blobAddr as Pointer, 0, blobSize).slice(0));
    return { target, user, secret };
  } finally {
    advapi().CredFree(p);
  }
}

/** Removes the credential; true when there was one. */
export function deleteCredential(target: string): boolean {
  if (advapi().CredDeleteW(wstr(target), CRED_TYPE_GENERIC, 0) !== 0) return true;
  const code = lastError();
  if (code === ERROR_NOT_FOUND) return false;
  throw new CredentialStoreError("CredDeleteW", code);
}
