// The fuzz cases of one OpenAPI operation for one actor: a valid call, then hostile variants of each
// path parameter, query parameter, header and body field, and of the body as a whole (JSON or
// multipart). Cases are built lazily: a 10 MB string exists only while its request is sent.
import { randomUUID } from 'node:crypto';
import {
  fieldVariants,
  generate,
  idFor,
  idKindOf,
  TEN_MB,
  textVariants,
  type GenContext,
  type JsonSchema,
  type Rng,
  type SeededIds,
} from './fuzz-schema.ts';

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface RequestSpec {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Sent over a plain socket: the bytes cannot pass through fetch (a raw NUL in the URL). */
  raw?: boolean;
}

export interface FuzzCase {
  label: string;
  build(): RequestSpec;
}

/** What a case needs to know about the seeded world and the actor sending it. */
export interface CaseWorld {
  rng: Rng;
  own: SeededIds;
  other: SeededIds;
  /** Values for path parameters that are not record ids (`type`, `key`, `publicId`, a board key id). */
  pathValue(method: string, path: string, name: string, which: 'own' | 'other'): string | undefined;
  /** The actor's own run, for X-Service-Run-Id. */
  runId: string;
}

const UPLOAD_LIMIT_PLUS = TEN_MB + 1024 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

export function casesFor(method: string, template: string, op: Operation, world: CaseWorld): FuzzCase[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header');
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  const multipart = op.requestBody?.content['multipart/form-data'] !== undefined;
  const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
  const ctx = (ids: GenContext['ids']): GenContext => ({ rng: world.rng, own: world.own, other: world.other, ids });

  const pathValueOf = (p: Parameter, ids: GenContext['ids']): string => {
    if (ids === 'unknown' && idKindOf(p.name)) return randomUUID();
    const which = ids === 'other' ? 'other' : 'own';
    const special = world.pathValue(method, template, p.name, which);
    if (special !== undefined) return special;
    if (p.schema?.enum) return String(world.rng.pick(p.schema.enum));
    return idFor(p.name, ctx(ids));
  };
  const validQuery = (ids: GenContext['ids']): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const p of queryParams) {
      if (!p.required && !world.rng.chance(0.3)) continue;
      const value = generate(p.schema, p.name, ctx(ids));
      if (value !== null && typeof value !== 'object') out[p.name] = String(value);
    }
    return out;
  };

  // One builder shared by every case: start from a valid call, then let the case change one thing.
  interface Parts {
    path: Record<string, string>;
    rawPath?: Record<string, string>;
    query: Record<string, string | string[]>;
    headers: Record<string, string>;
    body?: unknown;
    payload?: { body: string | Buffer; contentType?: string };
    raw?: boolean;
  }
  const base = (ids: GenContext['ids']): Parts => {
    const path = Object.fromEntries(pathParams.map((p) => [p.name, pathValueOf(p, ids)]));
    const headers: Record<string, string> = {};
    if (headerParams.some((p) => p.name.toLowerCase() === 'x-service-run-id'))
      headers['x-service-run-id'] = world.runId;
    const parts: Parts = { path, query: validQuery(ids), headers };
    if (jsonSchema) parts.body = generate(jsonSchema, 'body', ctx(ids));
    if (multipart)
      parts.payload = multipartPayload([{ name: 'file', filename: 'fuzz.png', contentType: 'image/png', data: PNG }]);
    return parts;
  };
  const toSpec = (parts: Parts): RequestSpec => {
    let url = template;
    for (const [name, value] of Object.entries(parts.path))
      url = url.replace(`{${name}}`, parts.rawPath?.[name] ?? encodeURIComponent(value));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(parts.query))
      for (const v of Array.isArray(value) ? value : [value]) search.append(name, v);
    const query = search.toString();
    const spec: RequestSpec = {
      method,
      path: query ? `${url}?${query}` : url,
      headers: { ...parts.headers },
      raw: parts.raw,
    };
    if (parts.payload) {
      spec.body = parts.payload.body;
      if (parts.payload.contentType) spec.headers['content-type'] = parts.payload.contentType;
    } else if (parts.body !== undefined && hasBody) {
      spec.body = JSON.stringify(parts.body);
      spec.headers['content-type'] = 'application/json';
    }
    return spec;
  };
  const cases: FuzzCase[] = [];
  const add = (label: string, change: (parts: Parts) => void = () => undefined, ids: GenContext['ids'] = 'own') => {
    let built: Parts | undefined;
    const parts = () => (built ??= base(ids));
    cases.push({
      label,
      build: () => {
        const p = structuredClone(parts());
        change(p);
        return toSpec(p);
      },
    });
  };

  add('valid');
  add('ids of the other company', undefined, 'other');
  add('unknown ids', undefined, 'unknown');

  for (const p of pathParams) {
    for (const v of textVariants(ctx('own'), p.name))
      add(`path ${p.name}: ${v.label}`, (parts) => (parts.path[p.name] = String(v.value())));
    add(`path ${p.name}: raw NUL`, (parts) => {
      parts.rawPath = { [p.name]: 'a\u0000b' };
      parts.raw = true;
    });
    add(`path ${p.name}: malformed percent-encoding`, (parts) => (parts.rawPath = { [p.name]: '%E0%A4%A' }));
    add(`path ${p.name}: 301 characters`, (parts) => (parts.path[p.name] = 'p'.repeat(301)));
  }
  for (const p of queryParams) {
    for (const v of textVariants(ctx('own'), p.name))
      add(`query ${p.name}: ${v.label}`, (parts) => (parts.query[p.name] = String(v.value())));
    add(`query ${p.name}: repeated`, (parts) => (parts.query[p.name] = ['1', 'two', randomUUID()]));
  }
  add('query: unknown parameter', (parts) => (parts.query.fuzzUnknown = 'x'));
  add('query: raw NUL', (parts) => {
    parts.query.fuzz = 'a\u0000b';
    parts.raw = true;
  });
  for (const p of headerParams) {
    const values = [
      ['not a uuid', 'not-a-uuid'],
      ['unknown uuid', randomUUID()],
      ["other company's run", world.other.run ?? randomUUID()],
      ['10,000 characters', 'r'.repeat(10_000)],
      ['negative', '-1'],
      ['huge number', '99999999999999999999999'],
      ['fraction', '1.5'],
      ['empty', ''],
    ] as const;
    for (const [label, value] of values) {
      add(`header ${p.name}: ${label}`, (parts) => (parts.headers[p.name] = value));
    }
  }

  // Credentials and headers every route reads: the auth layer and the body parser come before any rule.
  const credential = (label: string, authorization: string) =>
    add(`auth: ${label}`, (parts) => (parts.headers.authorization = authorization));
  credential('garbage bearer', 'Bearer garbage');
  credential('10,000-character bearer', `Bearer ${'t'.repeat(10_000)}`);
  credential('malformed JWT', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOi.garbage');
  credential(
    'JWT with alg none',
    `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: world.own.agent, company_id: world.own.company, run_id: world.runId, exp: 9_999_999_999 })}.`,
  );
  credential(
    'JWT signed with another key',
    `Bearer ${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: world.own.agent, exp: 9_999_999_999 })}.c2lnbmF0dXJl`,
  );
  credential('unknown board key shape', 'Bearer svc_board_' + 'a'.repeat(43));
  credential('unknown agent key shape', 'Bearer svc_agent_' + 'a'.repeat(43));
  credential('Basic scheme', 'Basic dXNlcjpwYXNz');
  add('auth: garbage session cookie', (parts) => {
    // An empty authorization is sent as none (see the sender).
    parts.headers.authorization = '';
    parts.headers.cookie = 'boardroom_session=garbage; boardroom_session=%ZZ';
  });
  add(
    'header: idempotency-key of 10,000 characters',
    (parts) => (parts.headers['idempotency-key'] = 'i'.repeat(10_000)),
  );
  add('header: x-request-id with path characters', (parts) => (parts.headers['x-request-id'] = '../../etc/passwd'));
  add('query: __proto__ parameter', (parts) => (parts.query.__proto__ = 'x'));
  if (method === 'GET') {
    add('method: HEAD', () => undefined);
    cases.at(-1)!.build = wrapMethod(cases.at(-1)!.build, 'HEAD');
  }
  add('method: OPTIONS', () => undefined);
  cases.at(-1)!.build = wrapMethod(cases.at(-1)!.build, 'OPTIONS');

  if (hasBody && !multipart) {
    const rawBody = (label: string, body: () => string | Buffer, contentType = 'application/json') =>
      add(`body: ${label}`, (parts) => {
        parts.body = undefined;
        parts.payload = { body: body(), contentType };
      });
    add('body: none', (parts) => (parts.body = undefined));
    add('body: empty object', (parts) => (parts.body = {}));
    add('body: array', (parts) => (parts.body = [parts.body ?? {}]));
    add('body: string', (parts) => (parts.body = 'just a string'));
    add('body: number', (parts) => (parts.body = 42));
    add('body: null', (parts) => (parts.body = null));
    rawBody('malformed JSON', () => '{"a":');
    rawBody('raw NUL byte in JSON text', () => '{"a":"x\u0000y"}');
    rawBody('empty with JSON content type', () => '');
    rawBody('5,000-deep JSON', () => '['.repeat(5000) + ']'.repeat(5000));
    rawBody('5,000-deep JSON object', () => '{"a":'.repeat(5000) + '1' + '}'.repeat(5000));
    rawBody('10 MB JSON', () => JSON.stringify({ big: 'x'.repeat(TEN_MB) }));
    rawBody('text/plain', () => 'hello', 'text/plain');
    rawBody('form-urlencoded', () => 'a=1&b=2', 'application/x-www-form-urlencoded');
    rawBody('unknown content type', () => '{}', 'application/x-fuzz');
    rawBody('JSON with charset latin1', () => '{"a":"é"}', 'application/json; charset=latin1');
    add('body: gzip content-encoding that is not gzip', (parts) => {
      parts.body = undefined;
      parts.payload = { body: '{"a":1}', contentType: 'application/json' };
      parts.headers['content-encoding'] = 'gzip';
    });
    rawBody('invalid UTF-8', () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    rawBody(
      'multipart to a JSON route',
      () => multipartPayload([{ name: 'file', filename: 'x.txt', data: 'x' }]).body,
      multipartPayload([]).contentType,
    );
  }
  if (jsonSchema?.properties) {
    add('body: extra unknown field', (parts) => {
      if (isObject(parts.body)) parts.body.fuzzUnknownField = 'x';
    });
    add('body: NUL in a key', (parts) => {
      if (isObject(parts.body)) parts.body['a\u0000b'] = 1;
    });
    for (const [name, schema] of Object.entries(jsonSchema.properties)) {
      if (jsonSchema.required?.includes(name)) {
        add(`body ${name}: missing`, (parts) => {
          if (isObject(parts.body)) delete parts.body[name];
        });
      }
      for (const v of fieldVariants(schema, name, ctx('own'))) {
        add(`body ${name}: ${v.label}`, (parts) => {
          if (isObject(parts.body)) parts.body[name] = v.value();
        });
      }
    }
  }
  if (multipart) {
    const upload = (label: string, payload: () => { body: string | Buffer; contentType?: string }) =>
      add(`multipart: ${label}`, (parts) => (parts.payload = payload()));
    upload('no boundary', () => ({
      body: multipartPayload([{ name: 'file', filename: 'a.png', data: PNG }]).body,
      contentType: 'multipart/form-data',
    }));
    upload('wrong boundary', () => ({
      body: multipartPayload([{ name: 'file', filename: 'a.png', data: PNG }]).body,
      contentType: 'multipart/form-data; boundary=nothere',
    }));
    upload('truncated', () => {
      const full = multipartPayload([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: PNG }]);
      return { body: full.body.subarray(0, full.body.length - 20), contentType: full.contentType };
    });
    upload('no parts', () => multipartPayload([]));
    upload('field instead of file', () => multipartPayload([{ name: 'file', data: 'not a file' }]));
    upload('two files', () =>
      multipartPayload([
        { name: 'file', filename: 'a.png', contentType: 'image/png', data: PNG },
        { name: 'file', filename: 'b.png', contentType: 'image/png', data: PNG },
      ]),
    );
    upload('empty file', () =>
      multipartPayload([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: '' }]),
    );
    upload('NUL in file name', () =>
      multipartPayload([{ name: 'file', filename: 'a\u0000.png', contentType: 'image/png', data: PNG }]),
    );
    upload('10,000-character file name', () =>
      multipartPayload([{ name: 'file', filename: `${'n'.repeat(10_000)}.png`, contentType: 'image/png', data: PNG }]),
    );
    upload('path in file name', () =>
      multipartPayload([{ name: 'file', filename: '../../etc/passwd', contentType: 'image/png', data: PNG }]),
    );
    upload('unknown content type', () =>
      multipartPayload([{ name: 'file', filename: 'a.bin', contentType: 'application/x-fuzz', data: 'x' }]),
    );
    upload('content type that lies', () =>
      multipartPayload([{ name: 'file', filename: 'a.png', contentType: 'image/png', data: '<svg onload=alert(1)>' }]),
    );
    upload('over the upload limit', () =>
      multipartPayload([
        { name: 'file', filename: 'big.png', contentType: 'image/png', data: Buffer.alloc(UPLOAD_LIMIT_PLUS) },
      ]),
    );
    upload('21 fields', () => multipartPayload(Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, data: 'x' }))));
    upload('JSON instead of multipart', () => ({ body: '{"file":"x"}', contentType: 'application/json' }));
    upload('deep JSON instead of multipart', () => ({
      body: '['.repeat(5000) + ']'.repeat(5000),
      contentType: 'application/json',
    }));
  }
  return cases;
}

function wrapMethod(build: () => RequestSpec, method: string): () => RequestSpec {
  return () => ({ ...build(), method });
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

function multipartPayload(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----fuzz${randomUUID().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? '' : `\r\nContent-Type: ${part.contentType}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
