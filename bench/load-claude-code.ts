/**
 * The reader benchmark on a deterministic ~100 MB Claude Code transcript (see load-harness.ts).
 *
 *   bun bench/load-claude-code.ts            (BENCH_RUNS=9, LOAD_MB=20 to change the runs or the size)
 */
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { readClaudeCodeSession } from "../core/session/formats/claude-code/read.ts";
import { runLoadBench, syntheticText, WORDS } from "./load-harness.ts";

const SESSION_ID = "0b5e55ed-2000-4000-8000-000000000002";
const CWD = "/home/dev/big";

/**
 * Writes a transcript shaped like a long real one (Claude Code 2.1.328's lines, as in
 * fixtures/real/claude-code/, about half of whose lines are bookkeeping): prompts with their
 * attachments, answers streamed one block a line (thinking, text, tool calls), tool results with
 * their `toolUseResult` (a read file's content twice, an edited file's original), the log of each
 * model request (its new messages again, then the request), queue, prompt, mode and cost lines,
 * subagent lines, `!` runs, rewinds, and a compaction every few hundred turns. One line in
 * sixteen has non-ASCII text.
 */
function writeTranscript(path: string, targetBytes: number): void {
  const { random, pick, words, accent, code } = syntheticText(20261130);

  const fd = openSync(`${path}.tmp`, "w");
  let buffered: string[] = [];
  let bufferedLength = 0;
  let written = 0;
  const flush = (): void => {
    written += writeSync(fd, buffered.join(""));
    buffered = [];
    bufferedLength = 0;
  };
  const emit = (record: Record<string, unknown>): void => {
    const line = `${JSON.stringify(record)}\n`;
    buffered.push(line);
    bufferedLength += line.length;
    if (bufferedLength > 1 << 20) flush();
  };

  let counter = 0;
  let second = 0;
  const start = Date.UTC(2026, 10, 1);
  const newUuid = () => `${(++counter).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;
  let leaf: string | null = null;
  const line = (type: string, fields: Record<string, unknown>, parent: string | null = leaf, sidechain = false): string => {
    const uuid = newUuid();
    emit({
      parentUuid: parent,
      isSidechain: sidechain,
      type,
      ...fields,
      uuid,
      timestamp: new Date(start + ++second * 1000).toISOString(),
      userType: "external",
      entrypoint: "cli",
      cwd: CWD,
      sessionId: SESSION_ID,
      version: "2.1.328",
      gitBranch: "main",
    });
    return uuid;
  };
  const usage = {
    input_tokens: 12000,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 9000,
    output_tokens: 800,
    service_tier: "standard",
  };
  const answerLine = (messageId: string, block: unknown, stop: string | null, parent: string | null, sidechain = false) =>
    line(
      "assistant",
      {
        message: {
          id: messageId,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [block],
          stop_reason: stop,
          stop_sequence: null,
          usage,
        },
        requestId: `req_${counter}`,
      },
      parent,
      sidechain,
    );

  const bookkeeping = (type: string, fields: Record<string, unknown>) => emit({ type, ...fields, sessionId: SESSION_ID });
  /** What Claude Code 2.1.328 logs for each model request: the messages new to it, then the request. */
  const logRequest = (messages: unknown[]) => {
    for (const message of messages) bookkeeping("api-request-blob", { hash: "h".repeat(64), message });
    bookkeeping("api-request", {
      id: `req_${counter}`,
      timestamp: new Date(start + second * 1000).toISOString(),
      version: "2.1.328",
      querySource: "sdk",
      params: { model: "claude-sonnet-4-5", max_tokens: 32000, thinking: { type: "enabled", budget_tokens: 31999 } },
      keep: 0,
    });
  };

  for (let turn = 0; written + bufferedLength < targetBytes; turn++) {
    const prompt = words(20 + Math.floor(random() * 120)) + accent();
    bookkeeping("queue-operation", { operation: "enqueue", timestamp: new Date(start + second * 1000).toISOString(), content: prompt });
    bookkeeping("queue-operation", { operation: "dequeue", timestamp: new Date(start + second * 1000).toISOString() });
    leaf = line("user", { message: { role: "user", content: prompt }, promptId: `p${turn}`, permissionMode: "acceptEdits" });
    const reminders: unknown[] = [];
    for (let a = 0, count = 1 + Math.floor(random() * 4); a < count; a++) {
      const reminder = `<system-reminder>\n${words(40 + Math.floor(random() * 300))}\n</system-reminder>`;
      reminders.push({ type: "text", text: reminder });
      leaf = line("attachment", {
        attachment: { type: pick(["date", "todo", "skill_listing", "file"]), content: words(20) },
        rendered: [{ content: reminder }],
        renderedRole: "user",
      });
    }
    logRequest([{ role: "user", content: [...reminders, { type: "text", text: prompt }] }]);

    const messageId = `msg_${turn}`;
    leaf = answerLine(
      messageId,
      { type: "thinking", thinking: words(40 + Math.floor(random() * 200)), signature: "x".repeat(200) },
      null,
      leaf,
    );
    leaf = answerLine(messageId, { type: "text", text: words(20 + Math.floor(random() * 60)) + accent() }, null, leaf);
    const calls: { id: string; kind: string; file: string }[] = [];
    const count = 1 + Math.floor(random() * 3);
    for (let c = 0; c < count; c++) {
      const id = `toolu_${turn}_${c}`;
      const file = `${CWD}/src/${pick(WORDS)}/${pick(WORDS)}.ts`;
      const kind = pick(["Read", "Read", "Edit", "Bash"]);
      const input =
        kind === "Bash"
          ? { command: `bun test ${file}`, description: "Run the tests" }
          : kind === "Edit"
            ? { file_path: file, old_string: code(3), new_string: code(4) }
            : { file_path: file };
      calls.push({ id, kind, file });
      leaf = answerLine(messageId, { type: "tool_use", id, name: kind, input }, c === count - 1 ? "tool_use" : null, leaf);
    }
    bookkeeping("tools-used", { tools: [...new Set(calls.map((call) => call.kind))] });
    const results: unknown[] = [];
    for (const call of calls) {
      const content =
        call.kind === "Read"
          ? code(5 + Math.floor(random() * 100)) + accent()
          : call.kind === "Edit"
            ? `The file ${call.file} has been updated successfully.`
            : code(2 + Math.floor(random() * 40));
      const failed = call.kind === "Bash" && random() < 0.2;
      const toolUseResult =
        call.kind === "Read"
          ? { type: "text", file: { filePath: call.file, content, numLines: 40, startLine: 1, totalLines: 40 } }
          : call.kind === "Edit"
            ? {
                filePath: call.file,
                oldString: "a",
                newString: "b",
                originalFile: code(10 + Math.floor(random() * 60)),
                structuredPatch: [],
                userModified: false,
              }
            : failed
              ? `Error: Exit code 1\n${content}`
              : { stdout: content, stderr: "", interrupted: false, isImage: false };
      const result = { tool_use_id: call.id, type: "tool_result", content: failed ? `Exit code 1\n${content}` : content, is_error: failed };
      results.push({ role: "user", content: [result] });
      leaf = line("user", { message: { role: "user", content: [result] }, toolUseResult, sourceToolAssistantUUID: leaf });
    }
    logRequest(results);
    leaf = answerLine(`msg_${turn}_done`, { type: "text", text: words(30 + Math.floor(random() * 100)) + accent() }, "end_turn", leaf);
    bookkeeping("last-prompt", { lastPrompt: prompt.slice(0, 200), leafUuid: leaf });
    bookkeeping("mode", { mode: "normal" });
    bookkeeping("cost-state", {
      totalCostUSD: turn * 0.01,
      totalAPIDuration: turn * 900,
      modelUsage: { "claude-sonnet-4-5": { inputTokens: turn * 12000, outputTokens: turn * 800 } },
    });

    if (turn % 25 === 4) {
      // A subagent's lines, in the same file: not the conversation.
      let side = line("user", { message: { role: "user", content: words(40) }, agentId: "a1" }, null, true);
      for (let k = 0; k < 4; k++) side = answerLine(`msg_side_${turn}_${k}`, { type: "text", text: words(200) }, "end_turn", side, true);
    }
    if (turn % 20 === 9) {
      leaf = line("user", { message: { role: "user", content: "<bash-input>git status --short</bash-input>" } });
      leaf = line("user", { message: { role: "user", content: `<bash-stdout>${code(4)}</bash-stdout><bash-stderr></bash-stderr>` } });
    }
    if (turn % 37 === 11) {
      // A rewind: an answer to a prompt the user then took back; the conversation goes on from before it.
      const from = leaf;
      const side = line("user", { message: { role: "user", content: words(30) } }, from);
      line(
        "assistant",
        {
          message: {
            id: `msg_rw_${turn}`,
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [{ type: "text", text: words(80) }],
            stop_reason: "end_turn",
            usage,
          },
        },
        side,
      );
      leaf = from;
    }
    if (turn % 300 === 299) {
      const boundary = line(
        "system",
        {
          subtype: "compact_boundary",
          content: "Conversation compacted",
          logicalParentUuid: leaf,
          compactMetadata: { trigger: "auto", preTokens: 160000, preservedSegment: { headUuid: leaf, anchorUuid: "", tailUuid: leaf } },
        },
        null,
      );
      leaf = line(
        "user",
        {
          message: { role: "user", content: `This session is being continued from a previous conversation.\n${words(600)}` },
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
        },
        boundary,
      );
    }
  }
  flush();
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}

await runLoadBench({
  label: "Claude Code transcript",
  fileName: "claude-code-v2.jsonl",
  generate: writeTranscript,
  read: readClaudeCodeSession,
  script: import.meta.path,
});
