// `http.fetch` through the host (the `http.outbound` capability; workers themselves have no network):
// only the manifest's `net` hosts, https only, the name resolved here and every address checked
// (loopback, private, CGNAT, unique-local, link-local and metadata, unspecified, multicast and
// reserved are refused), the connection made to the checked address (no second lookup, so no DNS
// rebinding window), no redirect followed (a 3xx is answered as is), bodies and time bounded. An
// operator lists `host:port` pairs a plugin may reach anyway, and over http
// (BOARDROOM_PLUGIN_NET_ALLOW): self-hosted receivers. `secrets.use` substitutes secret references
// (secret-refs.ts); their values never reach the worker: the answer and every error are redacted.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { CallRefused, type HostCall, HostCallError, hostCall, type Lookup } from './call.ts';
import { type Redactor, resolveSecretParts, secretPart } from './secret-refs.ts';

export const NET_LIMITS = { requestBytes: 1024 * 1024, responseBytes: 1024 * 1024, timeoutMs: 10_000 } as const;

export const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// Where a plugin may never connect (unless an operator allows the host and port). One list per
// family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too.
const REFUSED_V4 = new BlockList();
const REFUSED_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  REFUSED_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address through an IPv6 door
  ['fc00::', 7], // unique local (fd00:ec2::254 is a metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  REFUSED_V6.addSubnet(net, prefix, 'ipv6');

/** Whether a plugin's connection to this address is refused (any address that is not plainly public). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped (::ffff:a.b.c.d, in any spelling): refused outright, as a way around the IPv4 rules.
  if (new URL(`http://[${address}]/`).hostname.startsWith('[::ffff:')) return true;
  return REFUSED_V6.check(address, 'ipv6');
}

const part = z.union([z.string(), secretPart]);
const text = z.union([part, z.array(part).min(1).max(20)]);
const DROPPED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

const fetchParams = z.object({
  url: text,
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
  headers: z
    .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'a header name'), text)
    .refine((h) => Object.keys(h).length <= 50, 'at most 50 headers')
    .default({}),
  body: z.string().optional(),
});

export interface FetchAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const NET_CALLS: Record<string, HostCall> = {
  'http.fetch': hostCall('http.outbound', fetchParams, async (scope, p) => {
    const { values, redact } = await resolveSecretParts(scope, [p.url, ...Object.values(p.headers)]);
    try {
      const [url = '', ...headerValues] = values;
      const headers = Object.fromEntries(
        Object.keys(p.headers)
          .map((name, i) => [name.toLowerCase(), headerValues[i] ?? ''] as const)
          .filter(([name]) => !DROPPED_HEADERS.has(name)),
      );
      if (/[\r\n\0]/.test(Object.values(headers).join('')))
        throw new HostCallError('INVALID_PARAMS', 'a header value holds a line break or NUL');
      const answer = await fetchChecked(scope.manifest.net, scope.net, {
        url,
        method: p.method,
        headers,
        body: p.body,
      });
      return {
        status: answer.status,
        headers: Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, redact(v)])),
        body: redact(answer.body),
      };
    } catch (err) {
      throw redactedError(err, redact);
    }
  }),
};

function redactedError(err: unknown, redact: Redactor): unknown {
  if (!(err instanceof Error)) return err;
  const message = redact(err.message);
  if (message === err.message) return err;
  if (err instanceof CallRefused) return new CallRefused(message);
  return new HostCallError('HTTP_ERROR', message.replace(/^[A-Z_]+: /, ''));
}

interface Request {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

async function fetchChecked(
  netHosts: readonly string[],
  net: { allow: readonly string[]; lookup: Lookup },
  req: Request,
): Promise<FetchAnswer> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new HostCallError('INVALID_PARAMS', 'url is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CallRefused(`only https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new HostCallError('INVALID_PARAMS', 'a URL with credentials is refused');
  const hostname = url.hostname.toLowerCase();
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!netHosts.includes(hostname))
    throw new CallRefused(`host ${hostname} is not in the manifest's net (${netHosts.join(', ') || 'none'})`);
  const allowed = net.allow.includes(`${hostname}:${port}`);
  if (url.protocol === 'http:' && !allowed)
    throw new CallRefused(
      'plain http is refused: use https (an operator may allow a host:port in BOARDROOM_PLUGIN_NET_ALLOW)',
    );
  const bodyBytes = req.body === undefined ? 0 : Buffer.byteLength(req.body);
  if (bodyBytes > NET_LIMITS.requestBytes)
    throw new HostCallError('HTTP_LIMIT', `the request body is at most ${NET_LIMITS.requestBytes} bytes`);

  const addresses = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await net.lookup(bare).catch(() => {
        throw new HostCallError('HTTP_ERROR', `${hostname} does not resolve`);
      });
  const first = addresses[0];
  if (!first) throw new HostCallError('HTTP_ERROR', `${hostname} does not resolve`);
  const refused = allowed ? undefined : addresses.find((a) => isRefusedAddress(a.address));
  if (refused)
    throw new CallRefused(
      `${hostname} resolves to ${refused.address}, a loopback, private, link-local or metadata address: refused`,
    );
  return send(url, first, req, bodyBytes);
}

/** One request to the checked address (never a second lookup), bounded in time and size; no redirect followed. */
function send(
  url: URL,
  to: { address: string; family: number },
  req: Request,
  bodyBytes: number,
): Promise<FetchAnswer> {
  const lib = url.protocol === 'https:' ? https : http;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise<FetchAnswer>((resolve, reject) => {
    const outgoing = lib.request({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: req.method,
      headers: { ...req.headers, ...(req.body !== undefined && { 'content-length': String(bodyBytes) }) },
      agent: false,
      ...(isIP(hostname) === 0 && { servername: hostname }),
      lookup: (_name, options, callback) => {
        if ((options as { all?: boolean }).all) callback(null, [{ address: to.address, family: to.family }]);
        else (callback as (e: null, a: string, f: number) => void)(null, to.address, to.family);
      },
    });
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      reject(
        err instanceof HostCallError
          ? err
          : new HostCallError('HTTP_ERROR', `${url.hostname}: ${(err as NodeJS.ErrnoException).code ?? err.message}`),
      );
    };
    const timer = setTimeout(
      () => fail(new HostCallError('HTTP_TIMEOUT', `no complete answer within ${NET_LIMITS.timeoutMs} ms`)),
      NET_LIMITS.timeoutMs,
    );
    outgoing.on('error', fail);
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > NET_LIMITS.responseBytes)
          return fail(new HostCallError('HTTP_LIMIT', `the response body is over ${NET_LIMITS.responseBytes} bytes`));
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.end(req.body);
  });
}
