// The bridge errors of issue 27 section 1: what a call through a plugin worker fails with. The routes
// that call workers answer them as `502 { code, message }`; the codes are a closed list clients rely on.
export type BridgeCode = 'WORKER_UNAVAILABLE' | 'CAPABILITY_DENIED' | 'WORKER_ERROR' | 'TIMEOUT';

export class BridgeError extends Error {
  readonly status = 502;
  constructor(
    readonly code: BridgeCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: BridgeCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
