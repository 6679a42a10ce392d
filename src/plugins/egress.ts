// `agent.allow_egress` entries: a destination string (`host:port`, `ip:port`, `cidr:port`, a bare
// host or address) parsed into a rule. Part of the plugin contract (the agent adapter checks the
// entries a flow writes; the engine parses them again once resolved). Pure.

export const EGRESS_EXAMPLE = "allow_egress: [api.example.com:443, 10.0.0.5:8080, 10.1.0.0/16:5432, 10.0.0.7, ${API_HOST}]";
/** One `agent.allow_egress` entry, parsed: a host name, an IPv4/IPv6 address or a CIDR range, and a port (none on a host or address: any port). */
export type EgressEntry =
  | { readonly kind: "host"; readonly host: string; readonly port?: number }
  | { readonly kind: "ip"; readonly ip: string; readonly port?: number }
  | { readonly kind: "cidr"; readonly ip: string; readonly bits: number; readonly port: number };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOST = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return false;
  try {
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/**
 * Parses one resolved `allow_egress` entry: `host:port`, `ip:port`, `cidr:port` (IPv6 in brackets:
 * `[::1]:443`, `[fd00::/8]:443`), or a bare `host` or `ip` (`[fd00::7]` or `fd00::7`): every TCP
 * port of it. A CIDR range always names its port.
 */
export function parseEgressEntry(text: string): { ok: true; entry: EgressEntry } | { ok: false; message: string; hint: string } {
  const t = text.trim();
  const url = /^[a-z][a-z0-9+.-]*:\/\/([^/:]+)(?::(\d+))?/i.exec(t);
  if (url) return { ok: false, message: `\`${t}\` is a URL, not a destination`, hint: `write \`${url[1]}:${url[2] ?? "443"}\`` };
  // A bare address or host name: any port.
  const bareV6 = /^\[([^\]]+)\]$/.exec(t)?.[1] ?? t;
  if (isIpv6(bareV6)) return { ok: true, entry: { kind: "ip", ip: bareV6 } };
  if (IPV4.test(t)) return { ok: true, entry: { kind: "ip", ip: t } };
  if (HOST.test(t) && !/^\d+(\.\d+)*$/.test(t)) return { ok: true, entry: { kind: "host", host: t.replace(/\.$/, "").toLowerCase() } };
  const m = /^\[([^\]]+)\]:(\S*)$/.exec(t) ?? /^([^:\s[\]]+):(\S*)$/.exec(t);
  if (!m) {
    const range = /^\[?([^\]/\s]+)\/\d+\]?$/.exec(t);
    if (range && (IPV4.test(range[1]!) || isIpv6(range[1]!)))
      return {
        ok: false,
        message: `\`${t}\` names no port: a CIDR range is allowed on the ports you name`,
        hint: `write \`${t.includes(":") && !t.startsWith("[") ? `[${t}]` : t}:443\` (one entry per port), or name each address alone for every port`,
      };
    if (/^\d+(\.\d+)*$/.test(t))
      return { ok: false, message: `\`${t}\` is not an IPv4 address`, hint: "four numbers from 0 to 255, e.g. `10.0.0.5` or `10.0.0.5:8080`" };
    return { ok: false, message: `\`${t}\` is not a destination: write \`host\`, \`ip\`, \`host:port\`, \`ip:port\` or \`cidr:port\``, hint: EGRESS_EXAMPLE };
  }
  const [, addr, portText] = m as unknown as [string, string, string];
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535))
    return {
      ok: false,
      message: `port \`${portText}\` in \`${t}\` is out of range: a port is a whole number from 1 to 65535`,
      hint: `e.g. \`${m[0].slice(0, m[0].length - portText.length)}443\``,
    };
  const slash = addr.indexOf("/");
  if (slash >= 0) {
    const ip = addr.slice(0, slash);
    const bitsText = addr.slice(slash + 1);
    const v6 = isIpv6(ip);
    const max = v6 ? 128 : 32;
    const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    if (!(IPV4.test(ip) || v6))
      return {
        ok: false,
        message: `\`${addr}\` is not a CIDR range: the address before \`/\` must be an IPv4 or IPv6 address`,
        hint: "e.g. `10.1.0.0/16:5432` or `[fd00::/8]:443`",
      };
    if (!(bits >= 0 && bits <= max))
      return { ok: false, message: `prefix length \`/${bitsText}\` in \`${addr}\` must be from 0 to ${max}`, hint: "e.g. `10.1.0.0/16:5432`" };
    return { ok: true, entry: { kind: "cidr", ip, bits, port } };
  }
  if (IPV4.test(addr) || isIpv6(addr)) return { ok: true, entry: { kind: "ip", ip: addr, port } };
  if (/^\d+(\.\d+)*$/.test(addr)) return { ok: false, message: `\`${addr}\` is not an IPv4 address`, hint: "four numbers from 0 to 255, e.g. `10.0.0.5:8080`" };
  if (!HOST.test(addr)) return { ok: false, message: `\`${addr}\` is not a host name`, hint: "letters, digits, hyphens and dots, e.g. `api.example.com:443`" };
  return { ok: true, entry: { kind: "host", host: addr.replace(/\.$/, "").toLowerCase(), port } };
}
