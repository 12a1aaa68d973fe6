// Terminal colour codes in a run's log, read as styled pieces of text: the SGR codes for the 8 and 16
// foreground colours and bold become classes (styles.css maps them onto the tones); every other
// escape sequence (cursor moves, background colours, 256 and true colour, titles) is dropped so it
// never shows as raw `\x1b[` text. The style carries from one line to the next, as in a terminal.

export interface AnsiStyle {
  /** 0-7 the normal colours, 8-15 the bright ones; null is the text colour. */
  fg: number | null;
  bold: boolean;
}

export interface AnsiSpan extends AnsiStyle {
  text: string;
}

export const PLAIN: AnsiStyle = { fg: null, bold: false };

// CSI sequences (ESC [ params final), OSC (ESC ] ... BEL or ESC \), and any other two-byte escape.
const ESCAPE = /\x1b\[([0-9;:?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?/g;

function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === '' ? [0] : params.split(/[;:]/).map(Number);
  let { fg, bold } = style;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) {
      fg = null;
      bold = false;
    } else if (code === 1) bold = true;
    else if (code === 22) bold = false;
    else if (code >= 30 && code <= 37) fg = code - 30;
    else if (code >= 90 && code <= 97) fg = code - 90 + 8;
    else if (code === 39) fg = null;
    // 256 colours (5;n) and true colour (2;r;g;b), foreground or background: skipped whole.
    else if (code === 38 || code === 48) i += codes[i + 1] === 5 ? 2 : 4;
  }
  return { fg, bold };
}

/** One line's styled pieces, from the style the line starts in; `end` is the style it leaves for the next. */
export function parseAnsiLine(line: string, start: AnsiStyle): { spans: AnsiSpan[]; end: AnsiStyle } {
  const spans: AnsiSpan[] = [];
  let style = start;
  let at = 0;
  const push = (text: string) => {
    if (!text) return;
    const last = spans.at(-1);
    if (last && last.fg === style.fg && last.bold === style.bold) last.text += text;
    else spans.push({ text, ...style });
  };
  for (const match of line.matchAll(ESCAPE)) {
    push(line.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  push(line.slice(at));
  return { spans, end: style };
}

/** The text without any escape sequence (the collapsed view's last line, copies). */
export const stripAnsi = (text: string): string => text.replace(ESCAPE, '');
