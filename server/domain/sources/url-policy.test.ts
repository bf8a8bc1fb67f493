import { describe, expect, it } from "vitest";
import { blockedAddressReason, blockedHostReason, checkConnectionUrl } from "./url-policy";

const refuse = { allowLinkLocal: false };

describe("Connection URL policy", () => {
  it("accepts http(s), including loopback and private addresses", () => {
    for (const url of [
      "https://mcp.example.com/mcp",
      "http://127.0.0.1:3901/mcp",
      "http://10.0.0.5/mcp",
      "http://[::1]:8080/mcp",
    ]) {
      expect(checkConnectionUrl(url, refuse).toString()).toBe(new URL(url).toString());
    }
  });

  it("refuses other schemes, credentials in the URL and garbage, naming the field", () => {
    expect(() => checkConnectionUrl("file:///etc/passwd", refuse)).toThrow("url: must use http or https, not file");
    expect(() => checkConnectionUrl("ftp://x/mcp", refuse)).toThrow(/not ftp/);
    expect(() => checkConnectionUrl("https://user:pw@x/mcp", refuse)).toThrow(/must not contain credentials/);
    expect(() => checkConnectionUrl("not a url", refuse)).toThrow(/url: must be an absolute URL/);
  });

  it("refuses link-local and cloud-metadata addresses unless allowed", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data",
      "http://169.254.1.1/mcp",
      "http://[fd00:ec2::254]/",
      "http://[fe80::1]/mcp",
      "http://[::ffff:169.254.169.254]/",
      "http://metadata.google.internal/computeMetadata/v1",
      "http://100.100.100.200/",
      "http://168.63.129.16/",
      "http://192.0.0.192/",
      "http://[64:ff9b::a9fe:a9fe]/",
      "http://[64:ff9b::169.254.169.254]/",
      "http://0.0.0.0/",
    ]) {
      expect(() => checkConnectionUrl(url, refuse), url).toThrow(/may not reach it unless an admin allows/);
      expect(checkConnectionUrl(url, { allowLinkLocal: true })).toBeInstanceOf(URL);
    }
  });

  it("refuses every IPv6 form that carries a refused IPv4 address, and host names with a trailing dot", () => {
    for (const url of [
      "http://[::169.254.169.254]/", // IPv4-compatible
      "http://[::ffff:0:a9fe:a9fe]/", // IPv4-translated (SIIT)
      "http://[64:ff9b:1::a9fe:a9fe]/", // local-use NAT64
      "http://[2002:a9fe:a9fe::]/", // 6to4
      "http://[2001:0:a9fe:a9fe::1]/", // Teredo server
      "http://[2001:0:4136:e378:8000:63bf:5601:5601]/", // Teredo client ~(169.254.169.254 as bits)
      "http://[fe80::5efe:169.254.169.254]/",
      "http://[2001:db8::5efe:a9fe:a9fe]/", // ISATAP interface id
      "http://[fd20:ce::254]/", // Google Cloud's metadata over IPv6
      "http://metadata.google.internal./computeMetadata/v1",
      "http://METADATA.google.internal../",
      "http://169.254.169.254./",
      "http://0xa9fea9fe/",
      "http://[::ffff:100.100.100.200]/",
    ]) {
      expect(() => checkConnectionUrl(url, refuse), url).toThrow(/may not reach it unless an admin allows/);
    }
    expect(blockedAddressReason("2001:0:4136:e378:8000:63bf:5601:5601")).toMatch(/Teredo client/);
    expect(blockedAddressReason("2002:a9fe:a9fe::")).toMatch(/6to4 address \(2002::\/16\) of 169.254.169.254/);
  });

  it("refuses the unspecified address in every spelling, IPv4 and IPv6 (it reaches the host itself)", () => {
    for (const url of [
      "http://[::]/mcp",
      "http://[0:0:0:0:0:0:0:0]/mcp",
      "http://[0000:0000:0000:0000:0000:0000:0000:0000]/",
      "http://[::0]/",
      "http://[::0.0.0.0]/",
      "http://[::ffff:0.0.0.0]/mcp", // IPv4-mapped: a dual-stack socket connects to 0.0.0.0
      "http://[::ffff:0:0]/",
      "http://[0:0:0:0:0:ffff:0.0.0.0]/",
      "http://[::ffff:0.0.0.1]/", // the rest of 0.0.0.0/8, as IPv4 itself refuses it
      "http://[::ffff:0.255.255.255]/",
      "http://[::ffff:0:0.0.0.0]/", // IPv4-translated
      "http://[::ffff:0:0:0]/",
      "http://[::2]/", // IPv4-compatible 0.0.0.2
      "http://[::0.1.2.3]/",
      "http://[64:ff9b::]/", // NAT64 of 0.0.0.0
      "http://[64:ff9b::0.0.0.0]/",
      "http://[2002::]/", // 6to4 of 0.0.0.0
      "http://[2002:0:0::1]/",
      "http://0.0.0.0:3000/mcp",
      "http://0/",
      "http://0x0/",
      "http://0.0/",
      "http://000.000.000.000/",
      "http://0.1.2.3/",
    ]) {
      expect(() => checkConnectionUrl(url, refuse), url).toThrow(
        /unspecified .*may not reach it unless an admin allows/,
      );
    }
    // As a resolved address (a name whose DNS answer is one of them) too.
    for (const address of ["::", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "::ffff:0:0", "::%eth0", "64:ff9b::", "2002::"])
      expect(blockedAddressReason(address), address).toMatch(/unspecified/);
    expect(blockedAddressReason("::ffff:0.0.0.0")).toBe(
      "an IPv4-mapped address of 0.0.0.0, the unspecified network 0.0.0.0/8",
    );
  });

  it("still lets through the IPv6 forms of addresses a Connection may reach", () => {
    for (const address of [
      "::1",
      "0:0:0:0:0:0:0:1",
      "::ffff:10.0.0.5",
      "::ffff:127.0.0.1",
      "64:ff9b:1::", // local-use NAT64: its zero bytes are the prefix, not an address
      "2001::1", // Teredo with zeros where the layouts read an address
      "2001:db8::5efe:0:0", // ISATAP likewise
      "2002:0a00:0005::1",
      "64:ff9b:1::808:808",
      "2001:db8::5efe:a00:5",
    ]) {
      expect(blockedAddressReason(address), address).toBeNull();
    }
  });

  it("classifies resolved addresses", () => {
    expect(blockedAddressReason("169.254.169.254")).toMatch(/link-local/);
    expect(blockedAddressReason("fd00:ec2:0:0:0:0:0:254")).toMatch(/metadata/);
    expect(blockedAddressReason("127.0.0.1")).toBeNull();
    expect(blockedAddressReason("192.168.1.10")).toBeNull();
    expect(blockedAddressReason("2001:db8::1")).toBeNull();
    // NAT64 of an ordinary address is as reachable as the address itself.
    expect(blockedAddressReason("64:ff9b::808:808")).toBeNull();
  });
});

describe("the public reach (fetches anyone can cause: OAuth client metadata documents)", () => {
  it("refuses loopback, private and shared addresses, in their IPv6 forms too, as well as what Connections refuse", () => {
    for (const [address, reason] of [
      ["127.0.0.1", /loopback/],
      ["127.8.9.10", /loopback/],
      ["10.1.2.3", /private.*10\.0\.0\.0\/8/],
      ["172.20.0.1", /private.*172\.16\.0\.0\/12/],
      ["192.168.1.10", /private.*192\.168/],
      ["100.64.0.1", /carrier-grade NAT/],
      ["::1", /IPv6 loopback/],
      ["fd12:3456::1", /unique local/],
      ["::ffff:127.0.0.1", /IPv4-mapped address of 127\.0\.0\.1, loopback/],
      ["::ffff:10.0.0.5", /private/],
      ["169.254.169.254", /link-local/],
      ["fe80::1", /link-local/],
    ] as const) {
      expect(blockedAddressReason(address, "public"), address).toMatch(reason);
    }
    expect(blockedHostReason("[::1]", "public")).toMatch(/loopback/);
    expect(blockedHostReason("metadata.google.internal", "public")).toMatch(/metadata/);
  });

  it("lets public addresses through, and leaves the Connections' reach as it was", () => {
    for (const address of ["8.8.8.8", "2001:4860:4860::8888", "64:ff9b::808:808", "172.32.0.1", "100.128.0.1"])
      expect(blockedAddressReason(address, "public"), address).toBeNull();
    for (const address of ["127.0.0.1", "10.1.2.3", "::1", "fd12:3456::1"])
      expect(blockedAddressReason(address), address).toBeNull();
  });
});
