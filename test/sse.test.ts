// Framing of the one SSE writer (src/http/sse.ts); the streams over it are tested through HTTP in
// events-stream.test.ts and engine-runs-routes.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sseFrame } from '../src/http/sse.ts';

describe('sseFrame', () => {
  it('writes event, id and data lines, one data line per line of the data (CR, LF or CRLF)', () => {
    assert.equal(sseFrame('log', '{"offset":0}', 12), 'event: log\nid: 12\ndata: {"offset":0}\n\n');
    assert.equal(sseFrame('end', 'succeeded'), 'event: end\ndata: succeeded\n\n');
    assert.equal(
      sseFrame('note', 'one\ntwo\r\nthree\rfour'),
      'event: note\ndata: one\ndata: two\ndata: three\ndata: four\n\n',
    );
  });
});
