// Reads one session file with pi's own SessionManager and prints what pi would send.
// Usage: node pi-read.mjs <pi install dir> <session file>
import { print, providerView, scratchCopy } from "./shared.mjs";

const [installDir, file] = process.argv.slice(2);
const root = `${installDir}/node_modules/@mariozechner`;
const { SessionManager, convertToLlm } = await import(`${root}/pi-coding-agent/dist/index.js`);
const { transformMessages } = await import(`${root}/pi-ai/dist/providers/transform-messages.js`);

// A model unlike any in the fixtures, so nothing is kept as "the same model's" raw blocks.
const MODEL = { id: "probe", provider: "probe", api: "openai-completions", input: ["text", "image"] };
const { dir, copy } = scratchCopy(file);
const manager = SessionManager.open(copy, dir);
const context = manager.buildSessionContext();
print({
  sessionId: manager.getHeader()?.id ?? null,
  leafId: manager.getLeafId() ?? null,
  branch: manager.getBranch().map((e) => e.id),
  model: context.model ? `${context.model.provider}/${context.model.modelId}` : null,
  messages: providerView(context.messages, convertToLlm, (m) => transformMessages(m, MODEL)),
});
