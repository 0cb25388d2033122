/** Collects the suite's checks, prints each as it finishes, and sums them up per agent. */

export interface CheckResult {
  agent: string;
  name: string;
  ok: boolean;
  detail: string | undefined;
}

export interface Checks {
  results: CheckResult[];
  /** Records one check; `detail` says what was wrong (or, for a pass, an optional note). */
  record(agent: string, name: string, ok: boolean, detail?: string): boolean;
  /** Runs `body`; a throw is a failed check with the error's message. */
  run(agent: string, name: string, body: () => Promise<string | undefined> | string | undefined): Promise<boolean>;
}

export function createChecks(print: (line: string) => void): Checks {
  const results: CheckResult[] = [];
  const record = (agent: string, name: string, ok: boolean, detail?: string) => {
    results.push({ agent, name, ok, detail });
    print(`${ok ? "ok  " : "FAIL"} ${agent.padEnd(11)} ${name}${detail ? `\n       ${detail.split("\n").join("\n       ")}` : ""}`);
    return ok;
  };
  return {
    results,
    record,
    async run(agent, name, body) {
      try {
        return record(agent, name, true, (await body()) ?? undefined);
      } catch (error) {
        return record(agent, name, false, error instanceof Error ? error.message : String(error));
      }
    },
  };
}

/** `compat summary: pi 12/12 ok, omp 11/12 ok (1 FAILED) …`; deliberately not in the `N passed, N failed` form CI reads for the tests. */
export function summarize(results: readonly CheckResult[]): string {
  const agents = [...new Set(results.map((r) => r.agent))];
  const parts = agents.map((agent) => {
    const mine = results.filter((r) => r.agent === agent);
    const failed = mine.filter((r) => !r.ok).length;
    return `${agent} ${mine.length - failed}/${mine.length} ok${failed ? ` (${failed} FAILED)` : ""}`;
  });
  const failed = results.filter((r) => !r.ok).length;
  return `compat summary: ${parts.join(", ")}; ${results.length} checks, ${failed === 0 ? "all ok" : `${failed} FAILED`}`;
}

/** Throws with `message` unless `condition` holds: the assertion checks are written with. */
export function must(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Runs every part of a check and fails with all that failed, not just the first. */
export function allOf(parts: (() => string | void)[]): string | undefined {
  const failures: string[] = [];
  const notes: string[] = [];
  for (const part of parts) {
    try {
      const note = part();
      if (note) notes.push(note);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  must(failures.length === 0, failures.join("; "));
  return notes.join("; ") || undefined;
}
