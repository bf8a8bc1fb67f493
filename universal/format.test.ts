import { describe, expect, it } from "vitest";
import { formatBytes } from "@/components/ui/format";
import { fmtBytes, fmtSize, utf8Bytes } from "./format";

describe("one byte formatter", () => {
  it("gives the console's columns the words of the server's messages", () => {
    for (const n of [0, 512, 1023, 1024, 10 * 1024 + 300, 16_413, 1024 * 1024, 5_000_000]) {
      expect(formatBytes(n)).toBe(fmtSize(n));
      expect(fmtBytes(n).startsWith(fmtSize(n))).toBe(true);
    }
    expect([fmtSize(512), fmtSize(12_345), fmtSize(3 * 1024 * 1024)]).toEqual(["512 bytes", "12.1 KiB", "3.00 MiB"]);
    expect([fmtBytes(512), fmtBytes(16_413)]).toEqual(["512 bytes", "16.0 KiB (16,413 bytes)"]);
  });

  it("counts a text's UTF-8 bytes, not its UTF-16 units", () => {
    expect([utf8Bytes("abc"), utf8Bytes("é"), utf8Bytes("😀"), utf8Bytes("")]).toEqual([3, 2, 4, 0]);
  });
});
