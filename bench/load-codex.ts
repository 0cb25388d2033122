/**
 * Reading a deterministic ~100 MB Codex rollout (and its context), next to a baseline measured
 * in the same run: read the file and JSON.parse every line, nothing else. Each run is its own
 * process, so peak RSS is per run. Targets (issue 11): ≤ 1.5× the baseline's time, peak RSS ≤
 * 3× the file.
 *
 *   bun bench/load-codex.ts           (BENCH_RUNS=9, LOAD_MB=20 to change the runs or the size)
 */
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { codex } from "../core/session/formats/codex/index.ts";
import { runLoadBench, syntheticText, WORDS } from "./load-harness.ts";

/**
 * Writes a rollout shaped like a long real one (compare fixtures/real/codex/): per turn a
 * turn_context, Codex's context messages, the user's prompt and its event echo, then model
 * turns of encrypted reasoning, text and exec_command / apply_patch calls with their outputs,
 * token records and events; a compaction with replacement_history every hundred turns.
 */
function writeRollout(path: string, targetBytes: number): void {
  const { random, pick, words, accent, code } = syntheticText(20261130);

  const fd = openSync(`${path}.tmp`, "w");
  let buffered: string[] = [];
  let bufferedLength = 0;
  let written = 0;
  let second = 0;
  const start = Date.UTC(2026, 10, 1);
  const emit = (type: string, payload: Record<string, unknown>): void => {
    const line = `${JSON.stringify({ timestamp: new Date(start + ++second * 1000).toISOString(), type, payload })}\n`;
    buffered.push(line);
    bufferedLength += line.length;
    if (bufferedLength > 1 << 20) flush();
  };
  const flush = (): void => {
    written += writeSync(fd, buffered.join(""));
    buffered = [];
    bufferedLength = 0;
  };
  const message = (role: string, text: string) =>
    emit("response_item", { type: "message", role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text }] });

  emit("session_meta", {
    id: "0c0de000-1000-4000-8000-000000000001",
    timestamp: new Date(start).toISOString(),
    cwd: "/home/dev/big",
    originator: "codex_cli_rs",
    cli_version: "0.169.0",
    source: "cli",
    model_provider: "openai",
    base_instructions: { text: words(3000) },
  });
  const prompts: string[] = [];
  for (let turn = 0; written + bufferedLength < targetBytes; turn++) {
    emit("event_msg", { type: "task_started", turn_id: `turn-${turn}` });
    emit("turn_context", {
      turn_id: `turn-${turn}`,
      cwd: "/home/dev/big",
      model: turn % 50 < 45 ? "gpt-5" : "gpt-5-codex",
      summary: "auto",
    });
    emit("world_state", { full: true, state: { environments: { cwd: "/home/dev/big" }, instructions: words(200) } });
    const prompt = words(20 + Math.floor(random() * 120)) + accent();
    prompts.push(prompt);
    message("user", prompt);
    emit("event_msg", { type: "user_message", message: prompt, images: [] });
    const steps = 1 + Math.floor(random() * 4);
    for (let step = 0; step < steps; step++) {
      emit("response_item", { type: "reasoning", summary: [], encrypted_content: `gAAAA${"x".repeat(800 + Math.floor(random() * 2400))}` });
      if (random() < 0.5) message("assistant", words(20 + Math.floor(random() * 60)) + accent());
      const id = `call_${turn}_${step}`;
      if (random() < 0.75) {
        emit("response_item", {
          type: "function_call",
          name: "exec_command",
          arguments: JSON.stringify({ cmd: `bun test src/${pick(WORDS)}.ts` }),
          call_id: id,
        });
        const exit = random() < 0.2 ? 1 : 0;
        emit("response_item", {
          type: "function_call_output",
          call_id: id,
          output: `Chunk ID: ab12cd\nWall time: 0.1000 seconds\nProcess exited with code ${exit}\nOriginal token count: 300\nOutput:\n${code(2 + Math.floor(random() * 40))}${accent()}`,
        });
      } else {
        const file = `src/${pick(WORDS)}/${pick(WORDS)}.ts`;
        emit("response_item", {
          type: "custom_tool_call",
          status: "completed",
          call_id: id,
          name: "apply_patch",
          input: `*** Begin Patch\n*** Update File: ${file}\n@@\n-${code(3)}\n+${code(4)}\n*** End Patch`,
        });
        emit("response_item", {
          type: "custom_tool_call_output",
          call_id: id,
          output: `Success. Updated the following files:\nM ${file}\n`,
        });
      }
      emit("token_usage_record", {
        response_id: `resp_${turn}_${step}`,
        usage: { input_tokens: 12000, output_tokens: 800, total_tokens: 12800 },
      });
      emit("event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: 12000 * turn, output_tokens: 800 * turn } } });
    }
    message("assistant", words(30 + Math.floor(random() * 100)) + accent());
    emit("event_msg", { type: "task_complete", turn_id: `turn-${turn}` });
    if (turn % 100 === 99) {
      const summary = `Another language model started to solve this problem.\n${words(600)}`;
      const kept = prompts.slice(-20).map((text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] }));
      emit("compacted", {
        message: summary,
        replacement_history: [...kept, { type: "message", role: "user", content: [{ type: "input_text", text: summary }] }],
      });
    }
  }
  flush();
  closeSync(fd);
  renameSync(`${path}.tmp`, path);
}

await runLoadBench({
  label: "Codex rollout",
  // Bump the v1 when the generator changes, so a stale file is not reused.
  fileName: "codex-rollout-v1.jsonl",
  generate: writeRollout,
  read: (input, file) => codex.read(input, file),
  script: import.meta.path,
});
