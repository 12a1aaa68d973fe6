// One bounded GET for imports: a deadline and a byte cap, so a slow or huge answer is a 422 with the
// reason, never a hang or a 500.
import { unprocessable } from '../../core/errors.ts';

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
  /** Names the remote in messages ("code host", "download"). */
  label?: string;
}

export async function download(url: URL | string, limits: DownloadLimits): Promise<Buffer> {
  const label = limits.label ?? 'download';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const res = await fetch(url, {
      signal: controller.signal,
      redirect: 'follow',
      ...(limits.headers && { headers: limits.headers }),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw unprocessable(`${label} failed: HTTP ${res.status}${res.status === 404 ? ' (not found)' : ''}`, {
        status: res.status,
      });
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > limits.maxBytes) throw unprocessable(`${label} larger than ${limits.maxBytes} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res.body ?? []) {
      total += (chunk as Uint8Array).length;
      if (total > limits.maxBytes) {
        controller.abort();
        throw unprocessable(`${label} larger than ${limits.maxBytes} bytes`);
      }
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof Error && 'status' in err) throw err;
    throw unprocessable(
      controller.signal.aborted
        ? `${label} timed out after ${limits.timeoutMs} ms`
        : `${label} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
