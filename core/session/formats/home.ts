/** Where the agents keep their files: the types a format and its session index both take (types.ts re-exports them). */

/** Where the agents keep their files on this machine, as cli sees it; core only combines it. */
export interface AgentHome {
  /** The user's home folder. */
  home: string;
  /** The environment, for the agents' overrides (`PI_CODING_AGENT_DIR`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …). */
  env: Readonly<Record<string, string | undefined>>;
  /** The system's folder for temporary files (omp names the folders of sessions there its own way). */
  tmpdir: string;
  /**
   * The folder this run works in, absolute: an agent takes a relative override of its folder
   * (`CODEX_HOME=state`) in the folder it runs in, which for what we find and write is this one.
   * (Not `cwd`: a `SessionPlace` is an `AgentHome` whose `cwd` is the session's.)
   */
  runFolder: string;
}

/**
 * A path as segments, joined by cli with node:path (core has no path module). The first may be a
 * whole path (the home folder, an override from the environment); every later one is a single
 * folder name.
 */
export type PathSegments = readonly string[];
