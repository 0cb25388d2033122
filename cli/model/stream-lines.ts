/**
 * A streamed response whose lines are bounded: past `limit` bytes without a line break the body
 * fails (after `passed` is called, so the caller knows why) and nothing more is read. The SDK's
 * event parser holds each line whole; this keeps what it can be made to hold bounded.
 */
export function boundLines(response: Response, limit: number, passed: () => void): Response {
  if (response.body === null) return response;
  let sinceBreak = 0;
  const guard = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let from = 0;
      for (let at = chunk.indexOf(10, from); at !== -1; at = chunk.indexOf(10, from)) {
        if (sinceBreak + (at - from) > limit) break;
        sinceBreak = 0;
        from = at + 1;
      }
      sinceBreak += chunk.length - from;
      if (sinceBreak > limit) {
        passed();
        controller.error(new Error(`a line of the stream passed ${limit} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(guard), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
