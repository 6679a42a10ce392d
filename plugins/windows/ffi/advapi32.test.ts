import { describe, expect, test } from "bun:test";
import { CREDENTIAL_SIZE, CRED_PERSIST_LOCAL_MACHINE, CRED_TYPE_GENERIC, CredentialStoreError, decodeCredential, encodeCredential } from "./advapi32.ts";
import { FlowproofError } from "../../../src/plugins/api.ts";

describe("CREDENTIALW layout", () => {
  test("a generic credential puts target, blob, persistence and user at their x64 offsets", () => {
    const bytes = encodeCredential(0x1000, 0x2000, 0x3000, 24);
    expect(bytes.byteLength).toBe(CREDENTIAL_SIZE);
    const v = new DataView(bytes.buffer);
    expect(v.getUint32(0, true)).toBe(0);
    expect(v.getUint32(4, true)).toBe(CRED_TYPE_GENERIC);
    expect(Number(v.getBigUint64(8, true))).toBe(0x1000);
    expect(v.getUint32(32, true)).toBe(24);
    expect(v.getUint32(48, true)).toBe(CRED_PERSIST_LOCAL_MACHINE);
    expect(decodeCredential(bytes)).toEqual({ userAddr: 0x2000, blobAddr: 0x3000, blobSize: 24 });
  });
});

describe("CredentialStoreError", () => {
  test("is a coded flowproof error naming the call and the Win32 error, with what to do", () => {
    const e = new CredentialStoreError("CredWriteW", 1312);
    expect(e).toBeInstanceOf(FlowproofError);
    expect(e.code).toBe("credential-store");
    expect(e.win32Error).toBe(1312);
    expect(e.diagnostics[0]).toMatchObject({ message: "CredWriteW failed with Win32 error 1312", hint: expect.stringContaining("Credential Manager") });
  });
});
