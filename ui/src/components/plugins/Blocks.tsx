// A plugin's blocks (issue 27 section 5): the typed JSON its worker answers for a blocks slot
// (src/modules/plugins/blocks.ts, checked by the server before it reaches the board), drawn with the
// board's own components, so no plugin script ever runs here. Text is text; markdown goes through the
// board's sanitising renderer; a link is a path inside the company; a button or a form runs one of the
// plugin's declared actions (asking first when the action says `confirm`), and a failure says what
// the plugin answered and what to do.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { cents, duration } from '../../lib/format';
import { companyPluginKeys, pluginDataQuery, pluginsQuery, runPluginAction } from '../../queries/plugins';
import { BarChart } from '../BarChart';
import { Dialog, DialogActions } from '../Dialog';
import { Loading } from '../Loading';
import { Markdown } from '../Markdown';
import { TableScroll } from '../TableScroll';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';
import { fromDraft, toDraft, type Draft, type JsonSchema } from '../schema-form/schema-form';
import { SchemaFields } from '../schema-form/SchemaFields';

// The shapes of src/modules/plugins/blocks.ts, as the board reads them.
type Unit = 'count' | 'cents' | 'percent' | 'duration_ms';
type BlockTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';
type Cell = string | number | boolean | null;
export type Block =
  | { type: 'metric'; label: string; value: number | string; unit?: Unit; caption?: string; tone?: BlockTone }
  | {
      type: 'table';
      title?: string;
      columns: { key: string; label: string; unit?: Unit }[];
      rows: Record<string, Cell>[];
    }
  | {
      type: 'list';
      title?: string;
      items: { title: string; subtitle?: string; href?: string; tone?: BlockTone }[];
    }
  | { type: 'keyValue'; title?: string; items: { label: string; value: Cell; unit?: Unit }[] }
  | { type: 'markdown'; text: string }
  | {
      type: 'chart';
      kind: 'bar' | 'line';
      title?: string;
      unit?: Unit;
      series: { label: string; points: { x: string; y: number }[] }[];
    }
  | { type: 'form'; title?: string; action: string; submitLabel?: string; values?: Record<string, Cell> }
  | {
      type: 'buttons';
      buttons: { label: string; action: string; params?: Record<string, Cell>; tone?: 'default' | 'danger' }[];
    };

/** Where the blocks come from: the actions they may run are this plugin's, for this company. */
export interface BlocksContext {
  companyId: string;
  pluginId: string;
  /** The manifest's actions by key (for a form's schema and whether to ask first). */
  actions: Record<string, { paramsSchema?: JsonSchema; confirm?: boolean }>;
}

const count = new Intl.NumberFormat();

/** A number as its unit reads: money from cents, a duration, a percentage (the number is the percent: 42 → "42%"). */
export function formatMeasure(value: number | string, unit: Unit | undefined): string {
  if (typeof value === 'string') return value;
  switch (unit) {
    case 'cents':
      return cents(value);
    case 'percent':
      return `${count.format(value)}%`;
    case 'duration_ms':
      return duration(value);
    default:
      return count.format(value);
  }
}

function formatCell(value: Cell, unit?: Unit): string {
  if (value === null) return '–';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return formatMeasure(value, unit);
}

/** A block's link: a path of the company (`/issues/BRD-12` → `/c/{companyId}/issues/BRD-12`). */
const boardHref = (companyId: string, href: string) => (href.startsWith('/c/') ? href : `/c/${companyId}${href}`);

export function Blocks({ blocks, context }: { blocks: Block[]; context: BlocksContext }) {
  return (
    <div className="plugin-blocks">
      {blocks.map((block, index) => (
        // Blocks have no identity of their own: the worker's order is the key.
        <BlockView key={index} block={block} context={context} />
      ))}
    </div>
  );
}

function BlockView({ block, context }: { block: Block; context: BlocksContext }) {
  switch (block.type) {
    case 'metric':
      return (
        <div className={`plugin-metric plugin-tone-${block.tone ?? 'neutral'}`}>
          <span className="plugin-metric-label">{block.label}</span>
          <span className="plugin-metric-value">{formatMeasure(block.value, block.unit)}</span>
          {block.caption && <span className="muted plugin-metric-caption">{block.caption}</span>}
        </div>
      );
    case 'table':
      return (
        <figure className="plugin-block">
          {block.title && <figcaption className="plugin-block-title">{block.title}</figcaption>}
          <TableScroll label={block.title ?? 'Table'}>
            <table className="table">
              <thead>
                <tr>
                  {block.columns.map((column) => (
                    <th key={column.key} scope="col">
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {block.rows.map((row, index) => (
                  <tr key={index}>
                    {block.columns.map((column) => (
                      <td key={column.key} className={column.unit ? 'plugin-number' : undefined}>
                        {formatCell(row[column.key] ?? null, column.unit)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </figure>
      );
    case 'list':
      return (
        <section className="plugin-block" aria-label={block.title ?? 'List'}>
          {block.title && <h3 className="plugin-block-title">{block.title}</h3>}
          {block.items.length === 0 ? (
            <p className="muted">Nothing to list.</p>
          ) : (
            <ul className="plugin-list">
              {block.items.map((item, index) => (
                <li key={index} className={`plugin-tone-${item.tone ?? 'neutral'}`}>
                  {item.href ? (
                    <Link to={boardHref(context.companyId, item.href)}>{item.title}</Link>
                  ) : (
                    <span>{item.title}</span>
                  )}
                  {item.subtitle && <span className="muted">{item.subtitle}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      );
    case 'keyValue':
      return (
        <section className="plugin-block" aria-label={block.title ?? 'Details'}>
          {block.title && <h3 className="plugin-block-title">{block.title}</h3>}
          <dl className="plugin-key-values">
            {block.items.map((item) => (
              <div key={item.label}>
                <dt>{item.label}</dt>
                <dd>{formatCell(item.value, item.unit)}</dd>
              </div>
            ))}
          </dl>
        </section>
      );
    case 'markdown':
      return (
        <div className="plugin-block">
          <Markdown text={block.text} headingLevel={3} />
        </div>
      );
    case 'chart':
      return <ChartBlock block={block} />;
    case 'form':
      return <FormBlock block={block} context={context} />;
    case 'buttons':
      return <ButtonsBlock block={block} context={context} />;
    default:
      return null;
  }
}

function ChartBlock({ block }: { block: Extract<Block, { type: 'chart' }> }) {
  const tableId = useId();
  if (block.kind === 'bar')
    return (
      <div className="plugin-block">
        {block.series.map((series) => (
          <BarChart
            key={series.label}
            title={block.title ? `${block.title}: ${series.label}` : series.label}
            bars={series.points.map((point) => ({
              key: point.x,
              label: point.x,
              value: point.y,
              shown: formatMeasure(point.y, block.unit),
            }))}
          />
        ))}
      </div>
    );
  return (
    <figure className="plugin-block plugin-line-chart">
      {block.title && <figcaption className="plugin-block-title">{block.title}</figcaption>}
      <LineChart block={block} tableId={tableId} />
      <table id={tableId} className="visually-hidden">
        <caption>{block.title ?? 'Chart'}</caption>
        <thead>
          <tr>
            <th scope="col">Point</th>
            {block.series.map((series) => (
              <th key={series.label} scope="col">
                {series.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {(block.series[0]?.points ?? []).map((point, index) => (
            <tr key={point.x}>
              <th scope="row">{point.x}</th>
              {block.series.map((series) => (
                <td key={series.label}>{formatCell(series.points[index]?.y ?? null, block.unit)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

const LINE_W = 300;
const LINE_H = 80;

/** One polyline per series over a shared scale; the table beside it is its text for screen readers. */
function LineChart({ block, tableId }: { block: Extract<Block, { type: 'chart' }>; tableId: string }) {
  const values = block.series.flatMap((series) => series.points.map((point) => point.y));
  const max = Math.max(1, ...values);
  const min = Math.min(0, ...values);
  const first = block.series[0]?.points ?? [];
  const last = first.at(-1);
  return (
    <>
      <svg
        className="plugin-line-svg"
        viewBox={`0 0 ${LINE_W} ${LINE_H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${block.title ?? 'Chart'}: ${block.series.map((s) => s.label).join(', ')}`}
        aria-describedby={tableId}
      >
        {block.series.map((series, index) => {
          const step = series.points.length > 1 ? LINE_W / (series.points.length - 1) : 0;
          const points = series.points
            .map(
              (point, i) =>
                `${(i * step).toFixed(1)},${(2 + (LINE_H - 4) * (1 - (point.y - min) / (max - min))).toFixed(1)}`,
            )
            .join(' ');
          return (
            <polyline
              key={series.label}
              points={points}
              className={`plugin-line plugin-line-${index % 4}`}
              vectorEffect="non-scaling-stroke"
            />
          );
        })}
      </svg>
      <div className="plugin-line-axis muted" aria-hidden="true">
        <span>{first[0]?.x}</span>
        <span>{last?.x}</span>
      </div>
      {block.series.length > 1 && (
        <ul className="plugin-line-legend" aria-hidden="true">
          {block.series.map((series, index) => (
            <li key={series.label}>
              <span className={`plugin-line-swatch plugin-line-${index % 4}`} />
              {series.label}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Runs an action, asking first when the plugin declared it `confirm`; says how it ended. */
function useAction(context: BlocksContext, action: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: Record<string, unknown>) =>
      runPluginAction(context.companyId, context.pluginId, action, params),
    onSuccess: async () => {
      toast({ tone: 'success', title: 'Done', description: 'The plugin ran the action.' });
      // What the blocks show may have changed with it.
      await queryClient.invalidateQueries({ queryKey: companyPluginKeys.all(context.companyId) });
    },
  });
}

function FormBlock({ block, context }: { block: Extract<Block, { type: 'form' }>; context: BlocksContext }) {
  const declared = context.actions[block.action];
  const schema: JsonSchema = declared?.paramsSchema ?? { type: 'object', properties: {} };
  const [draft, setDraft] = useState<Draft>(() => toDraft(schema, block.values ?? {}));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState<Record<string, unknown> | null>(null);
  const run = useAction(context, block.action);
  const headingId = useId();
  const path = `/plugin-${block.action}`;
  if (!declared) return <p className="muted">This form runs an action the plugin does not declare ({block.action}).</p>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { value, errors: found } = fromDraft(schema, draft, path);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (declared.confirm) setAsking(value);
    else run.mutate(value);
  };
  return (
    <form className="plugin-block plugin-form" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 className="plugin-block-title" id={headingId}>
        {block.title ?? 'Form'}
      </h3>
      <SchemaFields schema={schema} draft={draft} path={path} errors={errors} onChange={setDraft} />
      {run.isError && <PluginCallError error={run.error} title="The action failed" />}
      <div>
        <Button type="submit" variant="primary" loading={run.isPending}>
          {run.isPending ? 'Running…' : (block.submitLabel ?? 'Submit')}
        </Button>
      </div>
      {asking && (
        <ConfirmAction
          label={block.submitLabel ?? block.title ?? block.action}
          busy={run.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run.mutate(asking, { onSettled: () => setAsking(null) })}
        />
      )}
    </form>
  );
}

function ButtonsBlock({ block, context }: { block: Extract<Block, { type: 'buttons' }>; context: BlocksContext }) {
  return (
    <div className="plugin-block plugin-buttons">
      {block.buttons.map((button) => (
        <ActionButton key={`${button.action}-${button.label}`} button={button} context={context} />
      ))}
    </div>
  );
}

function ActionButton({
  button,
  context,
}: {
  button: Extract<Block, { type: 'buttons' }>['buttons'][number];
  context: BlocksContext;
}) {
  const run = useAction(context, button.action);
  const [asking, setAsking] = useState(false);
  const declared = context.actions[button.action];
  const params = button.params ?? {};
  return (
    <div className="plugin-button">
      <Button
        variant={button.tone === 'danger' ? 'destructive' : 'secondary'}
        loading={run.isPending}
        onClick={() => (declared?.confirm ? setAsking(true) : run.mutate(params))}
      >
        {button.label}
      </Button>
      {run.isError && <PluginCallError error={run.error} title={`${button.label} failed`} />}
      {asking && (
        <ConfirmAction
          label={button.label}
          danger={button.tone === 'danger'}
          busy={run.isPending}
          onCancel={() => setAsking(false)}
          onConfirm={() => run.mutate(params, { onSettled: () => setAsking(false) })}
        />
      )}
    </div>
  );
}

function ConfirmAction({
  label,
  danger = false,
  busy,
  onCancel,
  onConfirm,
}: {
  label: string;
  danger?: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={`${label}?`}
      description="The plugin asks you to confirm this action before it runs."
      size="sm"
    >
      <DialogActions
        onCancel={onCancel}
        onConfirm={onConfirm}
        label={label}
        busyLabel="Running…"
        busy={busy}
        tone={danger ? 'danger' : 'primary'}
      />
    </Dialog>
  );
}

const BRIDGE_ADVICE: Record<string, string> = {
  WORKER_UNAVAILABLE:
    "The plugin is not running for this company. Check its health on the plugin's page (Plugins), then try again.",
  CAPABILITY_DENIED:
    'The plugin tried something this company did not allow it, or that you may not do. Its logs on the plugin’s page name the call.',
  WORKER_ERROR:
    "The plugin failed. Its logs on the plugin's page (Plugins) say why; tell its author if it keeps happening.",
  TIMEOUT:
    "The plugin took too long to answer. Try again; if it keeps happening, its logs on the plugin's page say why.",
};

/** What a call to a plugin answered when it failed: the plugin's own story (a 502 bridge error) and what to do. */
export function PluginCallError({ error, title, retry }: { error: unknown; title: string; retry?: () => void }) {
  const code =
    error instanceof ApiError && error.status === 502
      ? (error.details as { code?: string } | undefined)?.code
      : undefined;
  const advice = code
    ? (BRIDGE_ADVICE[code] ?? BRIDGE_ADVICE.WORKER_ERROR)
    : error instanceof ApiError && error.status === 403
      ? 'Your account may not do this for this company.'
      : error instanceof ApiError && error.status === 404
        ? 'The plugin, or this part of it, is not available here: it may have been turned off or uninstalled. Reload the page.'
        : error instanceof ApiError && error.status === 0
          ? 'Check that Boardroom is running and reachable, then try again.'
          : 'Reload the page; if it happens again, the server log has the details.';
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}</strong>
      <p>{errorMessage(error)}</p>
      <p className="muted">{advice}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** The manifest's actions of an installed plugin, by key. */
export function usePluginActions(pluginId: string): BlocksContext['actions'] {
  const plugin = useQuery(pluginsQuery()).data?.find((candidate) => candidate.id === pluginId);
  const actions = (plugin?.manifest.actions ?? []) as { key: string; paramsSchema?: JsonSchema; confirm?: boolean }[];
  return Object.fromEntries(actions.map((action) => [action.key, action]));
}

/** A blocks slot: the worker's answer to the slot's data key, drawn; loading and failures said in words. */
export function BlocksSlot({
  companyId,
  pluginId,
  dataKey,
  entityId = null,
  title,
}: {
  companyId: string;
  pluginId: string;
  dataKey: string;
  entityId?: string | null;
  title: string;
}) {
  const answer = useQuery(pluginDataQuery(companyId, pluginId, dataKey, entityId));
  const actions = usePluginActions(pluginId);
  if (answer.isPending) return <Loading label={`Loading ${title}`} />;
  if (answer.isError)
    return (
      <PluginCallError error={answer.error} title={`${title} could not be shown`} retry={() => answer.refetch()} />
    );
  const blocks = (answer.data.data as { blocks?: Block[] } | null)?.blocks ?? [];
  if (blocks.length === 0) return <p className="muted">The plugin has nothing to show here yet.</p>;
  return <Blocks blocks={blocks} context={{ companyId, pluginId, actions }} />;
}
