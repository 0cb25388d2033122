/**
 * Gemini CLI 0.61.0: the first turn (`gemini -p`, its tools allowed with `--approval-mode yolo`),
 * the second by id (`gemini -r <id> -p`), and the last as the newest of the folder (`gemini -r
 * latest -p`). Its compression starts on its own when the last reported usage passes a share of
 * the model's window (`model.compressionThreshold`, set low here, and large usage from the second
 * turn on): it asks for a `<state_snapshot>`, which the fake answers with the summary.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isObject } from "../../core/json.ts";
import { checkGeminiCompaction, geminiEnv, prepareGemini } from "../checks/gemini.ts";
import { must } from "../checks/report.ts";
import { jsonlFilesUnder, runTurn, type TranscriptDriver } from "./context.ts";
import { FIRST_PROMPT, SECOND_PROMPT, SUMMARY_TEXT, THANKS } from "./script.ts";

/** 0.2% of Gemini 2.5 Flash's 1,048,576-token window: about 2,100 tokens, passed once the fake reports 5,000. */
const COMPRESSION_THRESHOLD = 0.002;

export const geminiDriver: TranscriptDriver = {
  style: (project) => ({
    bash: (command) => ({ name: "run_shell_command", arguments: { command } }),
    read: (path) => ({ name: "read_file", arguments: { file_path: path } }),
    edit: (path, oldText, newText) => ({
      name: "replace",
      arguments: { file_path: join(project, path), old_string: oldText, new_string: newText, instruction: "Fix the typo." },
    }),
  }),
  // The line of Gemini's context that names the folder: the readers take the session's folder from it.
  keep: (project) => [`- **Workspace Directories:**\n  - ${project}`],
  async record(context) {
    prepareGemini(context.sandbox);
    const settingsPath = join(context.sandbox.home, ".gemini", "settings.json");
    const settings: unknown = JSON.parse(readFileSync(settingsPath, "utf8"));
    if (!isObject(settings) || !isObject(settings.model)) throw new Error(`${settingsPath}: no model settings`);
    writeFileSync(
      settingsPath,
      JSON.stringify({ ...settings, model: { ...settings.model, compressionThreshold: COMPRESSION_THRESHOLD } }, null, 2),
    );
    const env = geminiEnv(context.sandbox, context.fake);
    const bin = join(context.dir, context.agent.bin);
    const gemini = (...args: string[]) => runTurn(context, [bin, "--approval-mode", "yolo", ...args], env);
    await gemini("-p", FIRST_PROMPT);
    // The folder Gemini named for the project in its projects.json.
    const registry: unknown = JSON.parse(readFileSync(join(context.sandbox.home, ".gemini", "projects.json"), "utf8"));
    const folder = isObject(registry) && isObject(registry.projects) ? registry.projects[context.sandbox.project] : undefined;
    must(typeof folder === "string", `projects.json names no folder for ${context.sandbox.project}`);
    const chats = join(context.sandbox.home, ".gemini", "tmp", String(folder), "chats");
    const [first] = readdirSync(chats).filter((name) => name.endsWith(".jsonl"));
    const id: unknown =
      first === undefined ? undefined : JSON.parse(readFileSync(join(chats, first), "utf8").split("\n")[0] ?? "{}").sessionId;
    must(typeof id === "string", `no session file in ${chats}`);
    context.setInputTokens(5000);
    await gemini("-r", String(id), "-p", SECOND_PROMPT);
    const before = context.fake.requests.length;
    await gemini("-r", "latest", "-p", THANKS);
    const files = jsonlFilesUnder(chats).filter((path) => basename(path).startsWith("session-"));
    must(files.length > 0, `no session-*.jsonl in ${chats}`);
    // What Gemini sent when it resumed the newest: the history the readers are compared with (one line, its prose replaced like the rest).
    const resumed = context.fake.requests.slice(before).find((request) => request.path.includes(":streamGenerateContent"));
    const body = resumed?.body;
    must(isObject(body) && Array.isArray(body.contents), "no streamGenerateContent request after gemini -r latest");
    const sent = join(context.sandbox.tmp, "compressed-resume-request.json");
    const contents = isObject(body) && Array.isArray(body.contents) ? body.contents.filter(isObject) : [];
    writeFileSync(sent, `${JSON.stringify(contents)}\n`);
    // Read as a compaction: the summary, then the texts Gemini sent after its answer to it (the context and summary, then that answer, first).
    const textsAfter = contents
      .slice(2)
      .flatMap((c) => (Array.isArray(c.parts) ? c.parts.filter(isObject) : []))
      .flatMap((p) => (typeof p.text === "string" ? [p.text] : []));
    const main = files.find((path) => readFileSync(path, "utf8").includes(SUMMARY_TEXT));
    must(main !== undefined, "no session file holds the compaction summary");
    checkGeminiCompaction(readFileSync(String(main), "utf8"), String(main), SUMMARY_TEXT, textsAfter);
    return new Map([...files.map((path): [string, string] => [basename(path), path]), ["compressed-resume-request.json", sent]]);
  },
};
