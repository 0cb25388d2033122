import type { Agent } from "../agents.ts";
import type { Checks } from "../checks/report.ts";
import type { DnsLog } from "../isolate.ts";
export async function recordTranscripts(_agent: Agent, _dir: string, _checks: Checks, _dns: DnsLog, _options: { regenerate: boolean }): Promise<void> {}
