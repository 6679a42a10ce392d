import { describe, expect, test } from "bun:test";
import { DEFAULT_LOGON_PATHS, findLogonExe, iniEntries, landscapeEntries, logonEntries } from "./logon.ts";

describe("findLogonExe", () => {
  test("SAP_LOGON_EXE wins when it exists; a missing one is reported, not replaced", () => {
    expect(findLogonExe("D:\\sap\\saplogon.exe", () => true)).toEqual({ path: "D:\\sap\\saplogon.exe", tried: ["D:\\sap\\saplogon.exe"] });
    expect(findLogonExe("D:\\sap\\saplogon.exe", () => false)).toEqual({ tried: ["D:\\sap\\saplogon.exe"] });
  });

  test("otherwise the first default install path that exists", () => {
    expect(findLogonExe(undefined, (p) => p === DEFAULT_LOGON_PATHS[1]).path).toBe(DEFAULT_LOGON_PATHS[1]);
    expect(findLogonExe(undefined, () => false)).toEqual({ tried: DEFAULT_LOGON_PATHS });
  });
});

describe("SAP Logon entries", () => {
  test("read from SAPUILandscape.xml services", () => {
    const xml = `<Landscape><Services><Service type="SAPGUI" uuid="1" name="TS3 - Test &amp; QA" systemid="TS3"/><Service name="PRD"/></Services></Landscape>`;
    expect(landscapeEntries(xml)).toEqual(["TS3 - Test & QA", "PRD"]);
  });

  test("read from an older saplogon.ini", () => {
    expect(iniEntries("[Server]\nItem1=host\n[Description]\nItem1=TS3 - Test\r\nItem2=PRD\n[Database]\nItem1=x\n")).toEqual(["TS3 - Test", "PRD"]);
  });

  test("the landscape file first, then the ini, else nothing", () => {
    const files: Record<string, string> = { "/u/SAP/Common/saplogon.ini": "[Description]\nItem1=OLD\n" };
    expect(logonEntries("/u", (p) => files[p])).toEqual(["OLD"]);
    expect(logonEntries(undefined)).toEqual([]);
  });
});
