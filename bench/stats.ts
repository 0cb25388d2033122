/** Small helpers shared by the benchmarks: medians, timing child processes, printing rows. */

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Runs a command to completion and returns its wall time in milliseconds; throws if it fails. */
export async function timeCommand(cmd: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn(cmd, { ...options, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
  const elapsed = performance.now() - started;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}:\n${stderr}`);
  return elapsed;
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
