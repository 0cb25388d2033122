/**
 * The answer's `content-encoding` undone by us, not by `fetch`: Bun's own decompression prints
 * "Decompression error: ZlibError" on stderr, outside our output, when a body does not decompress
 * (a proxy that labels a plain body gzip). Ours fails with a `DecompressionError` instead, which
 * model-failure.ts says in one line. Requests are sent with `decompress: false` (http.ts).
 */

/** The body is labelled with an encoding it is not in. */
export class DecompressionError extends Error {
  constructor(
    readonly encoding: string,
    cause: unknown,
  ) {
    super(`the ${encoding} body does not decompress`, { cause });
  }
}

/** HTTP's content codings, as DecompressionStream names them (HTTP's `deflate` is the zlib format). */
const FORMATS: Readonly<Record<string, string>> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
  zstd: "zstd",
};

/** `gzip, br` was applied gzip first: undone last to first. Undefined when a coding is not one we know (left as it came). */
function formatsToUndo(contentEncoding: string): string[] | undefined {
  const codings = contentEncoding
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  const formats = codings.map((coding) => FORMATS[coding]);
  return formats.every((format) => format !== undefined) ? formats.reverse() : undefined;
}

/**
 * `body` decompressed; a failure of the decompressor is a `DecompressionError` naming the
 * encoding. A failure of the body itself (a connection reset, the run cancelled) comes through as
 * it was, to be said (and retried, or not) as it would be without an encoding.
 */
function decompressed(body: ReadableStream<Uint8Array>, formats: readonly string[], encoding: string): ReadableStream<Uint8Array> {
  const source = body.getReader();
  let sourceFailure: { error: unknown } | undefined;
  let stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await source.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        sourceFailure = { error };
        controller.error(error);
      }
    },
    cancel: (reason) => source.cancel(reason),
  });
  for (const format of formats)
    stream = stream.pipeThrough(new DecompressionStream(format as "gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(sourceFailure ? sourceFailure.error : new DecompressionError(encoding, error));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** The response with its body decoded, its status and headers as they came (but `content-encoding`, now undone). */
export function decodeResponse(response: Response): Response {
  const encoding = response.headers.get("content-encoding")?.trim() ?? "";
  const formats = encoding === "" ? undefined : formatsToUndo(encoding);
  if (response.body === null || formats === undefined || formats.length === 0) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return new Response(decompressed(response.body, formats, encoding), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
