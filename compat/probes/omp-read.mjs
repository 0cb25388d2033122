// Reads one session file with omp's own SessionManager and prints what omp would send.
// Usage: bun omp-read.mjs <omp install dir> <session file>
import { print, providerView, scratchCopy } from "./shared.mjs";

const [installDir, file] = process.argv.slice(2);
const root = `${installDir}/node_modules/@oh-my-pi`;
const { SessionManager } = await import(`${root}/pi-coding-agent/src/session/session-manager.ts`);
const { convertToLlm } = await import(`${root}/pi-coding-agent/src/session/messages.ts`);
const { transformMessages } = await import(`${root}/pi-ai/src/providers/transform-messages.ts`);

const MODEL = { id: "probe", provider: "probe", api: "openai-completions", input: ["text", "image"] };
const { dir, copy } = scratchCopy(file);
let manager;
try {
  manager = await SessionManager.open(copy, dir);
} catch (error) {
  // omp refuses some files outright (no valid header) and crashes on others: both are answers.
  print({ refused: String(error?.message ?? error).split("\n")[0] });
  process.exit(0);
}
const context = manager.buildSessionContext();
print({
  sessionId: manager.getHeader()?.id ?? null,
  leafId: manager.getLeafId() ?? null,
  branch: manager.getBranch().map((e) => e.id),
  model: context.models?.default ?? null,
  messages: providerView(context.messages, convertToLlm, (m) => transformMessages(m, MODEL)),
});
process.exit(0);
