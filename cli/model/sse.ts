/**
 * A server-sent event stream read as events (the WHATWG rules Chat Completions streams follow):
 * lines end in \n, \r\n or \r; a blank line ends an event; `data:` lines join with \n; `event:`
 * names it; a line starting with `:` is a comment; an event left open when the stream ends counts.
 */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/**
 * The events of `body`, as they arrive. Lines are bounded: past `lineLimit` bytes without a line
 * break, `tooLong` is called (so the caller knows why) and reading stops with an error, so an
 * endpoint that streams one endless line cannot make us hold it whole.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, lineLimit: number, tooLong: () => void): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let sinceBreak = 0;
  let pending = "";
  let event: string | undefined;
  let data: string[] = [];
  let open = false;
  // One line, without its ending: an event when it is blank and one is open.
  const take = (line: string): SseEvent | undefined => {
    if (line === "") {
      if (!open) return undefined;
      const done = { event, data: data.join("\n") };
      [event, data, open] = [undefined, [], false];
      return done;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") [event, open] = [value, true];
    else if (field === "data") [data, open] = [[...data, value], true];
    return undefined;
  };
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let from = 0;
      for (let at = value.indexOf(10, from); at !== -1; at = value.indexOf(10, from)) {
        if (sinceBreak + (at - from) > lineLimit) break;
        sinceBreak = 0;
        from = at + 1;
      }
      sinceBreak += value.length - from;
      if (sinceBreak > lineLimit) {
        tooLong();
        throw new Error(`a line of the stream passed ${lineLimit} bytes`);
      }
      // What is pending holds no line break, but perhaps a last \r: the search starts there, so a
      // long line that comes in many chunks is not scanned again at each. Each kind of break is
      // looked for once per line it ends, not at every line (a stream of \n has no \r at all).
      const searchFrom = Math.max(0, pending.length - 1);
      pending += decoder.decode(value, { stream: true });
      let start = 0;
      let cr = pending.indexOf("\r", searchFrom);
      let lf = pending.indexOf("\n", searchFrom);
      for (;;) {
        if (cr !== -1 && cr < start) cr = pending.indexOf("\r", start);
        if (lf !== -1 && lf < start) lf = pending.indexOf("\n", start);
        const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        // A \r at the very end may be the first half of \r\n: the next chunk says.
        if (end === -1 || (end === cr && end === pending.length - 1)) break;
        const line = pending.slice(start, end);
        start = end + (end === cr && pending[end + 1] === "\n" ? 2 : 1);
        const complete = take(line);
        if (complete) yield complete;
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    for (const line of pending === "" ? [] : pending.split(/\r\n|\r|\n/)) {
      const complete = take(line);
      if (complete) yield complete;
    }
    const last = take("");
    if (last) yield last;
    finished = true;
  } finally {
    // The caller stopped early (an answer past its bound): the connection goes too.
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
