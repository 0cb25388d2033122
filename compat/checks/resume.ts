import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import type { Checks } from "./report.ts";
export async function checkResume(_agent: Agent, _dir: string, _checks: Checks, _dns: DnsLog): Promise<void> {}
