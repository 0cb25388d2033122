import { isObject, stringField } from "../json.ts";
import type { Entry } from "./types.ts";

/**
 * The model each agent would resume a branch with, by its own rule (read from pi 0.73.1 and
 * omp 18; `bun run compat` checks both against the real agents):
 * - pi: the last `model_change` (`provider` + `modelId`) or assistant message (`provider` +
 *   `model`) on the branch, whichever comes later.
 * - omp: the last `model_change` whose `model` is `"provider/id"` with no role or role
 *   `default`; once there is one, assistant messages no longer count. Before it, the last
 *   assistant message's `provider/model`.
 * A field is undefined when the branch names no model that agent could call (none at all, or
 * one without a provider or id): the agent then starts with its default model. An answer that
 * names no model at all (a reader's mark for an agent's own filler) changes nothing.
 */
export interface RestoredModel {
  pi: { provider: string; modelId: string } | undefined;
  omp: string | undefined;
}

function both(provider: string | undefined, modelId: string | undefined): { provider: string; modelId: string } | undefined {
  return provider && modelId ? { provider, modelId } : undefined;
}

export function restoredModel(branch: readonly Entry[]): RestoredModel {
  let pi: RestoredModel["pi"];
  let omp: string | undefined;
  let ompExplicit = false;
  for (const entry of branch) {
    if (entry.type === "model_change") {
      pi = both(stringField(entry.data, "provider"), stringField(entry.data, "modelId"));
      const model = stringField(entry.data, "model");
      const role = stringField(entry.data, "role") ?? "default";
      if (model && role === "default") {
        omp = model;
        ompExplicit = true;
      }
    } else if (entry.type === "message" && isObject(entry.data.message) && entry.data.message.role === "assistant") {
      const provider = stringField(entry.data.message, "provider");
      const model = stringField(entry.data.message, "model");
      // An answer that names no model at all is an agent's own filler (Claude Code's `<synthetic>`
      // lines, read without a model): no agent resumes with it. pi and omp always name one.
      if (provider === undefined && model === undefined) continue;
      pi = both(provider, model);
      if (!ompExplicit) omp = pi && `${pi.provider}/${pi.modelId}`;
    }
  }
  return { pi, omp };
}

/**
 * A `model_change` entry that makes both agents resume with the branch's model: pi reads
 * `provider` and `modelId`, omp only `model`. When the branch names a model for one agent
 * only, the other gets the same one (it would otherwise fall back to its default, or to the
 * model of the answer we add). Undefined when the branch names no model at all: both agents
 * start with their default, with or without us.
 */
export function modelChangeFields(model: RestoredModel): Record<string, string> | undefined {
  const omp = model.omp ?? (model.pi && `${model.pi.provider}/${model.pi.modelId}`);
  const slash = model.omp?.indexOf("/") ?? -1;
  const pi =
    model.pi ?? (model.omp && slash > 0 ? { provider: model.omp.slice(0, slash), modelId: model.omp.slice(slash + 1) } : undefined);
  if (omp === undefined && pi === undefined) return undefined;
  const fields: Record<string, string> = { type: "model_change" };
  if (pi) Object.assign(fields, { provider: pi.provider, modelId: pi.modelId });
  if (omp) fields.model = omp;
  return fields;
}

/**
 * The model a new session for another agent may name: the source's, when the source's agent
 * names that model's provider as the other agent does (`shared` lists those providers; absent,
 * all are). Otherwise none, and the agent starts with its default model rather than look for a
 * provider it does not have.
 */
export function modelForAnotherAgent(model: RestoredModel, shared: readonly string[] | undefined): RestoredModel {
  if (shared === undefined) return model;
  const known = (provider: string | undefined) => provider !== undefined && shared.includes(provider);
  const slash = model.omp?.indexOf("/") ?? -1;
  return {
    pi: model.pi && known(model.pi.provider) ? model.pi : undefined,
    omp: model.omp !== undefined && slash > 0 && known(model.omp.slice(0, slash)) ? model.omp : undefined,
  };
}
