// A run's last log line as a person reads it on one line: the live-runs list shows it, and the
// run_log event carries it (src/modules/runs/run-log.ts), so an open dashboard follows its runs'
// output from the event rather than reading every run's log again each second.

/** A last line longer than this is cut (with an ellipsis): the view shows one line. */
export const LAST_LINE_MAX = 300;

// CSI and OSC sequences (colours, cursor moves, titles) and the other C0 controls but tab.
const TERMINAL_CONTROLS = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|[\x00-\x08\x0b-\x1f\x7f]/g;

/** The last non-blank line of a log tail, as a person would read it on one line. */
export function lastLine(tail: string | null): string | null {
  if (!tail) return null;
  const lines = tail.split(/\r?\n|\r/);
  for (const raw of lines.reverse()) {
    const line = raw.replace(TERMINAL_CONTROLS, '').trim();
    if (line) return line.length > LAST_LINE_MAX ? `${line.slice(0, LAST_LINE_MAX - 1)}…` : line;
  }
  return null;
}
