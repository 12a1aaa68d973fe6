// A plugin's own page (a `frame` slot, issue 27 section 5): an iframe sandboxed to scripts and forms
// only, never allow-same-origin, so the page has an opaque origin: it cannot read the board, its
// cookies or its storage, and the API refuses anything it sends (Origin: null). Its files come from
// /plugin-frames/… with a CSP of their own. It talks to the board through one MessageChannel handed
// over when the page loads, and only through it (window messages are ignored):
//
// - board → frame: `{ type: 'context', context: { companyId, pluginId, slotKey, entityId, theme } }`
//   once connected; `{ type: 'theme', theme }` when the scheme changes; answers `{ type: 'result',
//   id, data }` or `{ type: 'error', id, message, code }` to the frame's requests.
// - frame → board: `{ type: 'resize', height }`, `{ type: 'toast', title, description?, tone? }`,
//   `{ type: 'navigate', path }` (a path of the company, e.g. `/issues/BRD-12`), and
//   `{ type: 'data' | 'action', id, key, params }`, which the board runs for this plugin and company
//   with the signed-in user's rights, exactly as its blocks would.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { useThemePreference } from '../../lib/theme';
import { pluginDataQuery, runPluginAction } from '../../queries/plugins';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../ui/Toast';

const BOARD_PATH = /^\/(?!\/)[^\s\\]*$/;
const MIN_HEIGHT = 160;
const MAX_HEIGHT = 4000;

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');
function useSystemDark(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = darkQuery();
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => darkQuery().matches,
  );
}

/** The scheme the board shows now: the one picked, else the system's. */
function useTheme(): 'light' | 'dark' {
  const preference = useThemePreference();
  const systemDark = useSystemDark();
  return preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;
}

type FrameMessage =
  | { type: 'resize'; height: number }
  | { type: 'toast'; title: string; description?: string; tone?: 'success' | 'error' | 'info' }
  | { type: 'navigate'; path: string }
  | { type: 'data' | 'action'; id: string | number; key: string; params?: Record<string, unknown> };

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;

export function PluginFrame({
  companyId,
  pluginId,
  slotKey,
  title,
  frameUrl,
  entityId = null,
}: {
  companyId: string;
  pluginId: string;
  slotKey: string;
  title: string;
  frameUrl: string;
  entityId?: string | null;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const port = useRef<MessagePort | null>(null);
  const [height, setHeight] = useState(MIN_HEIGHT * 3);
  const theme = useTheme();
  const themeNow = useRef(theme);
  themeNow.current = theme;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The handler reads the latest props through a ref: the channel outlives renders.
  const handler = useRef<(message: FrameMessage) => void>(() => undefined);
  handler.current = (message) => {
    const reply = (answer: Record<string, unknown>) => port.current?.postMessage(answer);
    switch (message.type) {
      case 'resize':
        if (typeof message.height === 'number' && Number.isFinite(message.height))
          setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(message.height))));
        return;
      case 'toast': {
        const heading = text(message.title, 200);
        if (!heading) return;
        const tone = message.tone === 'error' || message.tone === 'success' ? message.tone : 'info';
        const description = text(message.description, 500);
        toast({ tone, title: `${title}: ${heading}`, ...(description && { description }) });
        return;
      }
      case 'navigate':
        // Within the company only: a path, never a URL elsewhere.
        if (typeof message.path === 'string' && BOARD_PATH.test(message.path) && message.path.length <= 500)
          void navigate(`/c/${companyId}${message.path}`);
        return;
      case 'data':
      case 'action': {
        const key = text(message.key, 100);
        if (!key) return;
        const params = message.params && typeof message.params === 'object' ? message.params : {};
        const call =
          message.type === 'data'
            ? queryClient.fetchQuery({ ...pluginDataQuery(companyId, pluginId, key, entityId), staleTime: 0 })
            : runPluginAction(companyId, pluginId, key, params);
        call.then(
          (answer) => reply({ type: 'result', id: message.id, data: (answer as { data?: unknown }).data ?? null }),
          (error: unknown) =>
            reply({
              type: 'error',
              id: message.id,
              message: errorMessage(error),
              code: error instanceof ApiError ? ((error.details as { code?: string } | undefined)?.code ?? null) : null,
            }),
        );
        return;
      }
      default:
        return;
    }
  };

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const connect = () => {
      port.current?.close();
      const channel = new MessageChannel();
      port.current = channel.port1;
      channel.port1.onmessage = (event: MessageEvent) => {
        if (event.data && typeof event.data === 'object') handler.current(event.data as FrameMessage);
      };
      // The frame's origin is opaque: '*' is the only target it matches. The port is all it gets.
      element.contentWindow?.postMessage({ type: 'boardroom:connect', version: 1 }, '*', [channel.port2]);
      channel.port1.postMessage({
        type: 'context',
        context: { companyId, pluginId, slotKey, entityId, theme: themeNow.current },
      });
    };
    element.addEventListener('load', connect);
    return () => {
      element.removeEventListener('load', connect);
      port.current?.close();
      port.current = null;
    };
  }, [companyId, pluginId, slotKey, entityId]);

  useEffect(() => {
    port.current?.postMessage({ type: 'theme', theme });
  }, [theme]);

  return (
    <iframe
      ref={frame}
      className="plugin-frame"
      title={title}
      src={frameUrl}
      sandbox="allow-scripts allow-forms"
      referrerPolicy="no-referrer"
      style={{ height }}
    />
  );
}
