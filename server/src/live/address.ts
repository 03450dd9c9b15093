import { isIPv6 } from 'node:net';

/**
 * The unit a per-address cap counts: an IPv4 address, or an IPv6 /64. One IPv6 subscriber usually holds a whole /64,
 * so counting single IPv6 addresses would give one machine billions of allowances.
 */
export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%')[0]!; // a zone id (fe80::1%eth0) names the interface, not the peer
  if (!isIPv6(bare)) return ip;
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const [head = '', tail] = bare.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
