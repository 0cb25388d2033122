/** The plan's words where the CLI says them: a model still to be asked of the endpoint is named as such, not by its placeholder. */
import { planTargetOf, type HandoffInput, type PlanTarget } from "../../../core/index.ts";
import { MODEL_ASKED_OF_ENDPOINT } from "../../flags/options.ts";

/** Who a handoff's requests go to, for its plan's messages. */
export function planTarget(input: HandoffInput): PlanTarget {
  return input.model === MODEL_ASKED_OF_ENDPOINT ? { model: "the model the endpoint serves" } : planTargetOf(input);
}
