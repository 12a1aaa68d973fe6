// Which of a run's log came from stderr. The log route and its stream send the interleaved text with
// the byte ranges (absolute UTF-8 offsets, half-open) that the run wrote on stderr; the transcript
// keeps the text as pieces of one stream each, then lines whose styled spans each know their stream
// (ANSI styles carry across pieces and lines, as in a terminal).
import { type AnsiSpan, type AnsiStyle, PLAIN, parseAnsiLine } from './ansi';

export interface StreamPiece {
  text: string;
  stderr: boolean;
}

export interface ByteRange {
  from: number;
  to: number;
}

export interface StreamSpan extends AnsiSpan {
  stderr: boolean;
}

export interface TranscriptLine {
  spans: StreamSpan[];
  /** The line holds characters (its newline included) written on stdout / on stderr. */
  stdout: boolean;
  stderr: boolean;
}

export type StreamFilter = 'all' | 'stdout' | 'stderr';

/** Appends text to pieces, extending the last piece when it is of the same stream. */
function append(pieces: StreamPiece[], text: string, stderr: boolean): void {
  if (!text) return;
  const last = pieces.at(-1);
  if (last && last.stderr === stderr) last.text += text;
  else pieces.push({ text, stderr });
}

/** Cuts a page of the log (`content` from byte `offset`) into pieces of one stream each, by its stderr byte ranges. */
export function splitStreams(content: string, offset: number, stderr: ByteRange[] = []): StreamPiece[] {
  if (stderr.length === 0) return content ? [{ text: content, stderr: false }] : [];
  const pieces: StreamPiece[] = [];
  let byte = offset;
  let range = 0;
  let start = 0;
  let current = false;
  for (let i = 0; i < content.length; ) {
    const code = content.codePointAt(i) ?? 0;
    const units = code > 0xffff ? 2 : 1;
    while (range < stderr.length && (stderr[range]?.to ?? 0) <= byte) range++;
    const inStderr = range < stderr.length && (stderr[range]?.from ?? Infinity) <= byte;
    if (inStderr !== current) {
      append(pieces, content.slice(start, i), current);
      start = i;
      current = inStderr;
    }
    byte += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += units;
  }
  append(pieces, content.slice(start), current);
  return pieces;
}

/** The pieces with more appended, kept to their last `max` characters. */
export function appendPieces(
  previous: StreamPiece[],
  added: StreamPiece[],
  max: number,
): { pieces: StreamPiece[]; trimmed: boolean } {
  const pieces = previous.map((piece) => ({ ...piece }));
  for (const piece of added) append(pieces, piece.text, piece.stderr);
  let excess = pieces.reduce((sum, piece) => sum + piece.text.length, 0) - max;
  if (excess <= 0) return { pieces, trimmed: false };
  while (excess > 0 && pieces.length > 0) {
    const first = pieces[0];
    if (!first) break;
    if (first.text.length <= excess) {
      excess -= first.text.length;
      pieces.shift();
    } else {
      pieces[0] = { ...first, text: first.text.slice(excess) };
      excess = 0;
    }
  }
  return { pieces, trimmed: true };
}

/** The transcript's lines: styled spans, each of one stream; a last line without its newline included. */
export function transcriptLines(pieces: StreamPiece[]): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  let style: AnsiStyle = PLAIN;
  let line: TranscriptLine = { spans: [], stdout: false, stderr: false };
  const hasText = () => line.spans.length > 0 || line.stdout || line.stderr;
  for (const piece of pieces) {
    const parts = piece.text.split('\n');
    parts.forEach((part, index) => {
      if (part) {
        const parsed = parseAnsiLine(part, style);
        style = parsed.end;
        for (const span of parsed.spans) {
          const last = line.spans.at(-1);
          if (last && last.stderr === piece.stderr && last.fg === span.fg && last.bold === span.bold)
            last.text += span.text;
          else line.spans.push({ ...span, stderr: piece.stderr });
        }
        if (piece.stderr) line.stderr = true;
        else line.stdout = true;
      }
      if (index < parts.length - 1) {
        // The newline ends the line, and counts for the stream that wrote it.
        if (piece.stderr) line.stderr = true;
        else line.stdout = true;
        lines.push(line);
        line = { spans: [], stdout: false, stderr: false };
      }
    });
  }
  if (hasText()) lines.push(line);
  return lines;
}

/** The lines a filter shows, each with only the spans of its stream. */
export function filterLines(lines: TranscriptLine[], filter: StreamFilter): TranscriptLine[] {
  if (filter === 'all') return lines;
  const stderr = filter === 'stderr';
  return lines
    .filter((line) => (stderr ? line.stderr : line.stdout))
    .map((line) =>
      line.stdout && line.stderr ? { ...line, spans: line.spans.filter((span) => span.stderr === stderr) } : line,
    );
}
