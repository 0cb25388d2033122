import type { Run } from "../run.ts";
import { countOf } from "../../core/index.ts";

/**
 * A live status line on stderr while the model writes: elapsed time and tokens received.
 * Only for a person watching a terminal; a no-op in CI, in pipes and with --quiet.
 */
export interface Progress {
  update(chars: number): void;
  stop(): void;
}

export function createProgress(run: Run, enabled: boolean, text: string): Progress {
  if (!enabled) return { update() {}, stop() {} };
  // The label names the model, which comes from flags or the environment: through the output boundary.
  const label = run.printed.forPeople(text);
  const started = performance.now();
  let chars = 0;
  let shown = false;
  const draw = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    run.stderr.writeOwn(`\r\x1b[2K${label} · ${seconds}s · ~${countOf(Math.ceil(chars / 4), "token")} received`);
    shown = true;
  };
  const timer = setInterval(draw, 250);
  return {
    update(received) {
      chars = received;
    },
    stop() {
      clearInterval(timer);
      if (shown) run.stderr.writeOwn("\r\x1b[2K");
    },
  };
}
