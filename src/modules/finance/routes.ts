import { z } from 'zod';
import type { App, AppDeps } from '../../http/deps.ts';
import { authenticated, errors, type ErrorStatus } from '../../http/openapi.ts';
import { contextOf } from '../../http/request.ts';
import { companyParams } from '../costs/schemas.ts';
import { rangeOf, rangeQuery } from '../costs/summary-schemas.ts';
import {
  financeByBillerResponse,
  financeByKindResponse,
  financeEventResponse,
  financeSummaryResponse,
  presentFinanceEvent,
} from './present.ts';
import { createFinanceEventBody, listFinanceEventsQuery, MAX_FINANCE_EVENTS_PAGE } from './schemas.ts';
import { financeByBiller, financeByKind, financeSummary, listFinanceEvents, recordFinanceEvent } from './service.ts';

const tags = ['finance'];
const BOARD_ERRORS: [ErrorStatus, string][] = [
  [403, "an agent caller (board only), or the company is not one of the caller's"],
  [404, 'no such company'],
];
const RANGE_ERRORS: [ErrorStatus, string] = [
  400,
  'a malformed `from` or `to` (an ISO 8601 date-time with Z or an offset), or `from` after `to`',
];
const RANGE =
  "Optional `from` (inclusive) and `to` (exclusive) bound the events' `occurredAt`; omitted, all events count.";
const BOARD_ONLY = 'Board only: agents get 403.';
const NOT_COSTS =
  'Finance events are separate from cost events: they are not in the cost summaries, and amounts are never added across currencies.';

export function registerFinanceRoutes(app: App, deps: AppDeps): void {
  const { db } = deps.database;

  app.post(
    '/api/companies/:companyId/finance-events',
    {
      schema: {
        tags,
        summary: 'Record a finance event',
        description: [
          `Records money that is not token usage: a platform fee, a credit purchase or refund, a manual adjustment. ${BOARD_ONLY}`,
          'Required: `kind` (free text), `direction` (`debit` or `credit`), `amountCents` (integer, 0 or more), `currency` (ISO 4217, three uppercase letters, a code the server knows) and `occurredAt`; anything missing or malformed is 400.',
          `\`finance.recorded\` is written to the activity log in the same transaction. A retried request with the same \`idempotencyKey\` returns the first event with 200 and records nothing again. ${NOT_COSTS}`,
        ].join(' '),
        params: companyParams,
        body: createFinanceEventBody,
        response: {
          201: financeEventResponse,
          200: financeEventResponse.describe('A repeat of an idempotencyKey: the first event, recorded once'),
          ...authenticated(),
          ...errors(...BOARD_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { event, created } = await recordFinanceEvent(
        contextOf(db, request),
        request.params.companyId,
        request.body,
      );
      return reply.status(created ? 201 : 200).send(presentFinanceEvent(event));
    },
  );

  app.get(
    '/api/companies/:companyId/costs/finance-summary',
    {
      schema: {
        tags,
        summary: 'Finance totals per currency',
        description: `Per currency with events: \`debitCents\` and \`creditCents\` (sums of \`amountCents\` by direction), \`netCents\` = debits minus credits, and \`eventCount\`. ${RANGE} ${NOT_COSTS} ${BOARD_ONLY}`,
        params: companyParams,
        querystring: rangeQuery,
        response: { 200: financeSummaryResponse, ...authenticated(), ...errors(RANGE_ERRORS, ...BOARD_ERRORS) },
      },
    },
    async (request) => {
      const range = rangeOf(request.query);
      return { ...range, currencies: await financeSummary(contextOf(db, request), request.params.companyId, range) };
    },
  );

  app.get(
    '/api/companies/:companyId/costs/finance-by-biller',
    {
      schema: {
        tags,
        summary: 'Finance totals per biller',
        description: `One row per \`biller\` (null: recorded without one) and currency, with debits, credits, net (debits minus credits) and count; largest debits plus credits first. ${RANGE} ${BOARD_ONLY}`,
        params: companyParams,
        querystring: rangeQuery,
        response: { 200: financeByBillerResponse, ...authenticated(), ...errors(RANGE_ERRORS, ...BOARD_ERRORS) },
      },
    },
    async (request) => {
      return financeByBiller(contextOf(db, request), request.params.companyId, rangeOf(request.query));
    },
  );

  app.get(
    '/api/companies/:companyId/costs/finance-by-kind',
    {
      schema: {
        tags,
        summary: 'Finance totals per kind',
        description: `One row per \`kind\` and currency, with debits, credits, net (debits minus credits) and count; largest debits plus credits first. ${RANGE} ${BOARD_ONLY}`,
        params: companyParams,
        querystring: rangeQuery,
        response: { 200: financeByKindResponse, ...authenticated(), ...errors(RANGE_ERRORS, ...BOARD_ERRORS) },
      },
    },
    async (request) => {
      return financeByKind(contextOf(db, request), request.params.companyId, rangeOf(request.query));
    },
  );

  app.get(
    '/api/companies/:companyId/costs/finance-events',
    {
      schema: {
        tags,
        summary: 'List finance events',
        description: `Newest \`occurredAt\` first. ${RANGE} \`limit\` 1 to ${MAX_FINANCE_EVENTS_PAGE} (default 100; outside that range 400). ${BOARD_ONLY}`,
        params: companyParams,
        querystring: listFinanceEventsQuery,
        response: {
          200: z.array(financeEventResponse).describe('The finance events, newest first'),
          ...authenticated(),
          ...errors(
            [400, 'a malformed `from` or `to`, `from` after `to`, or `limit` outside 1 to 500'],
            ...BOARD_ERRORS,
          ),
        },
      },
    },
    async (request) => {
      const { companyId } = request.params;
      return (
        await listFinanceEvents(contextOf(db, request), companyId, rangeOf(request.query), request.query.limit)
      ).map(presentFinanceEvent);
    },
  );
}
