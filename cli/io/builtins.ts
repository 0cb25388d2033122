/**
 * Built-in modules (Node's and Bun's), loaded where a path first needs one. Not `import()`: Bun's
 * one-file bundle loads a built-in any import names at start, lazy or not (cli/scenarios/lazy-imports.test.ts).
 * This reads no state of the process, so the house rule (only the host touches it) allows it here.
 */
interface Builtins {
  "node:child_process": typeof import("node:child_process");
  "node:zlib": typeof import("node:zlib");
  "node:tty": typeof import("node:tty");
  "node:os": typeof import("node:os");
  "bun:sqlite": typeof import("bun:sqlite");
}

export function builtin<Name extends keyof Builtins>(name: Name): Builtins[Name] {
  return process.getBuiltinModule(name) as Builtins[Name];
}
