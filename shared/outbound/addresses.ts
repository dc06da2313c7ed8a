import { BlockList, isIP } from 'node:net';

/**
 * Addresses an outbound request (webhook, workflow WEBHOOK step) must never reach: everything
 * that is not a public unicast address. IPv4-mapped and NAT64 IPv6 addresses are refused as a
 * whole rather than unwrapped: no receiver needs them, and unwrapping is where filters go wrong.
 */
const ipv4: [string, number, string][] = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const ipv6: [string, number, string][] = [
  ['::', 96, 'unspecified, loopback or IPv4-compatible'],
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64'],
  ['64:ff9b:1::', 48, 'NAT64'],
  ['100::', 64, 'discard'],
  ['2001::', 23, 'IETF protocol assignments'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];
// One list per range and family: a BlockList holding IPv6 rules also matches IPv4 addresses
// against them (as IPv4-compatible ::a.b.c.d), so the families are never mixed in one list.
const ranges = [...ipv4.map((range) => [...range, 'ipv4'] as const), ...ipv6.map((range) => [...range, 'ipv6'] as const)].map(([network, prefix, reason, type]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return { list, type, reason };
});

/**
 * Why an address may not be reached (`'loopback'`, `'private'`…), or undefined for a public
 * unicast address. Anything that is not an IP address at all is refused too.
 */
export function blockedReason(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  const type = version === 4 ? 'ipv4' : 'ipv6';
  return ranges.find((range) => range.type === type && range.list.check(address, type))?.reason;
}
