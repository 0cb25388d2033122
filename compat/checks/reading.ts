import type { Agent } from "../agents.ts";
import type { Checks } from "./report.ts";
export async function checkReading(_agent: Agent, _dir: string, _checks: Checks): Promise<void> {}
