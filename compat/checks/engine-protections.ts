/**
 * What the product adds to an agent's run so that the agent reads nothing on its own (issue 22
 * A6, A12), named so that a control run can leave it out and show the checks would catch the
 * agent reading: Claude Code's two switches, Codex's two settings, omp's project marker.
 */
import type { AgentRunPlan } from "../../core/agent-run/types.ts";

const ENV = ["CLAUDE_CODE_DISABLE_FILE_MENTIONS", "CLAUDE_CODE_DISABLE_CLAUDE_MDS"];
const SETTINGS = ["project_doc_max_bytes=0", "project_root_markers=[]"];
const FILES = [".git"];

/** `plan` without those protections (the prompt is as given: a raw one stays raw). */
export function unprotected(plan: AgentRunPlan): AgentRunPlan {
  const args: string[] = [];
  for (let i = 0; i < plan.args.length; i++) {
    const arg = plan.args[i] ?? "";
    if (arg === "-c" && SETTINGS.includes(plan.args[i + 1] ?? "")) i++;
    else args.push(arg);
  }
  const env = Object.fromEntries(Object.entries(plan.env).filter(([name]) => !ENV.includes(name)));
  const files = Object.fromEntries(Object.entries(plan.files ?? {}).filter(([name]) => !FILES.includes(name)));
  return { ...plan, args, env, files };
}
