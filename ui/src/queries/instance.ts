// The instance's reads (not one company's): who is signed in, the companies, the adapters with their
// config schemas, the server's health and the doctor checks. No company stream refreshes them: a
// change made here refreshes them itself, and the company list is also refreshed when a company changes.
import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../api/client';
import { instanceKeys } from '../api/keys';
import type { JsonSchema } from '../components/schema-form/schema-form';

/**
 * Who is signed in. In local_trusted mode the server answers for the local board user without any
 * credential, so the board never shows sign-in there; elsewhere a 401 leads to /sign-in.
 */
export const meQuery = () =>
  queryOptions({
    queryKey: instanceKeys.me,
    queryFn: async () => data(await api.GET('/api/cli-auth/me')),
    staleTime: Infinity,
  });

export const companiesQuery = () =>
  queryOptions({ queryKey: instanceKeys.companies, queryFn: async () => data(await api.GET('/api/companies')) });

const listAdapters = async () => data(await api.GET('/api/adapters'));
export type Adapter = Awaited<ReturnType<typeof listAdapters>>[number];

/** Every adapter with its environment check (each takes up to 5 s on the server): read at most once a minute. */
export const adaptersQuery = () =>
  queryOptions({ queryKey: instanceKeys.adapters, queryFn: listAdapters, staleTime: 60_000 });

/** The JSON schema of an adapter's config; changes only when the adapter does (which refreshes it). */
export const adapterConfigSchemaQuery = (type: string) =>
  queryOptions({
    queryKey: instanceKeys.adapterConfigSchema(type),
    queryFn: async () =>
      data(await api.GET('/api/adapters/{type}/config-schema', { params: { path: { type } } })) as JsonSchema,
    enabled: type !== '',
    staleTime: 5 * 60_000,
  });

export const healthQuery = () =>
  queryOptions({ queryKey: instanceKeys.health, queryFn: async () => data(await api.GET('/api/health')) });

export const doctorQuery = () =>
  queryOptions({ queryKey: instanceKeys.doctor, queryFn: async () => data(await api.GET('/api/instance/doctor')) });
