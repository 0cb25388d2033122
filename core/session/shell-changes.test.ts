import { describe, expect, test } from "bun:test";
import { shellFileEvents } from "./shell-changes.ts";

/** What the line changed; what it read is shell-reads.test.ts's. */
const show = (command: string) =>
  shellFileEvents(command)
    .filter((e) => e.op !== "read")
    .map((e) => `${e.op} ${e.path}`);

describe("the files a shell command writes (and moves away), in order", () => {
  test.each([
    ["sed -i 's/wrold/world/' src/greet.txt", ["write src/greet.txt"]],
    ["sed -i.bak -e 's/a/b/' -e 's/c/d/' a.txt b.txt", ["write a.txt", "write b.txt"]],
    ["sed -i '' 's/a/b/' a.txt", ["write a.txt"]],
    ["sed --in-place=.orig 's/a/b/' conf/app.ini", ["write conf/app.ini"]],
    ["sed -n '1,20p' src/a.ts", []],
    ["sed -i .bak 's/a/b/' f.txt", ["write f.txt"]],
    ["sed -ie 's|a|b|' f.txt", ["write f.txt"]],
    ["sed -i '1d' f.txt", ["write f.txt"]],
    ["sed 's/a/b/' in.txt > out.txt", ["write out.txt"]],
    ["perl -pi -e 's/foo/bar/g' lib/x.pm lib/y.pm", ["write lib/x.pm", "write lib/y.pm"]],
    ["perl -i.bak -pe 's/a/b/' x.txt", ["write x.txt"]],
    ["perl -ne 'print if /a/' x.txt", []],
    ["echo done > status.txt", ["write status.txt"]],
    ["echo more >> notes/log.md", ["write notes/log.md"]],
    ["npm test 2>err.log", ["write err.log"]],
    ["npm test &> all.log", ["write all.log"]],
    ["npm test > /dev/null 2>&1", []],
    ["echo x >&2", []],
    ["printf 'a\\n' | tee -a out/list.txt", ["write out/list.txt"]],
    ["mv src/old.ts src/new.ts", ["delete src/old.ts", "write src/new.ts"]],
    ["mv a.ts b.ts lib/", ["delete a.ts", "delete b.ts", "write lib/a.ts", "write lib/b.ts"]],
    ["cp .env.example .env", ["write .env"]],
    ["mv utils/config.ts .", ["delete utils/config.ts", "write ./config.ts"]],
    ["cp ../shared/a.ts ..", ["write ../a.ts"]],
    ["cp -r templates/base/ site/", ["write site/base"]],
    ["cd pkg && sed -i 's/1.0/1.1/' package.json", ["write pkg/package.json"]],
    ["cd $DIR && echo x > a.txt", []],
    ["echo x > out/*.txt", []],
    ["cat > src/new.ts <<'EOF'\nexport const a = 1 > 0;\nrm -rf /\nEOF", ["write src/new.ts"]],
    ['echo "a > b" && grep -c ">" file', []],
    ["cat a.txt < input.txt", []],
    ["git mv a.ts b.ts", ["delete a.ts", "write b.ts"]],
    ["cat src/a.ts", []],
  ])("%p", (command, expected) => {
    expect(show(command)).toEqual(expected);
  });
});

describe("a shell line's words are read as the shell reads them (heredocs, redirections, comments, subshells)", () => {
  test.each([
    // A heredoc ends at its terminator line; the commands after it are read.
    [
      "cat > a.ts <<'EOF'\nexport const a = 1;\nEOF\ncat > b.ts <<'EOF'\nexport const b = 2;\nEOF\nrm old.ts",
      ["write a.ts", "write b.ts", "delete old.ts"],
    ],
    ["cat > f.txt <<EOF\nhello > world.txt\nEOF\necho after > after.txt", ["write f.txt", "write after.txt"]],
    ['cat <<-"END" > a.ts\n\trm nothing.txt\n\tEND\ntouch x; echo y > y.txt', ["write a.ts", "write y.txt"]],
    ["python3 - <<'PY' > result.txt\nprint(1 > 0)\nPY", ["write result.txt"]],
    ["cat <<EOF\nno terminator > here.txt", []],
    ["cat <<<'x > y' > here-string.txt", ["write here-string.txt"]],
    // `>|` and a `>` glued to the word before it are redirections.
    ["echo y >| forced.txt", ["write forced.txt"]],
    ["echo x>|d.txt", ["write d.txt"]],
    ["echo x>out.txt", ["write out.txt"]],
    ["echo x 2>err.log", ["write err.log"]],
    ["make 2>&1 | tee build.log", ["write build.log"]],
    // Words that are no files: arithmetic, [[ ]] comparisons, comments, escaped `>`.
    ["echo $((3 > 2))", []],
    ["[[ $x > abc ]] && echo yes", []],
    ["sed -i 's/a/b/' f.txt # fix > later", ["write f.txt"]],
    ["ls; echo # > notfile", []],
    ["echo a#b > real.txt", ["write real.txt"]],
    ["echo 3 \\> 2", []],
    // An escaped blank is part of the name.
    ["echo x > my\\ file.txt", ["write my file.txt"]],
    ["rm my\\ notes.txt", ["delete my notes.txt"]],
    // A cd inside a subshell holds only inside it.
    ["(cd sub && echo x > y.txt)", ["write sub/y.txt"]],
    ["( cd sub; rm a.txt ); rm b.txt", ["delete sub/a.txt", "delete b.txt"]],
    ["(cd sub && echo x > y.txt); echo z > w.txt", ["write sub/y.txt", "write w.txt"]],
    ["cd lib && (cd sub && rm a) && rm b", ["delete lib/sub/a", "delete lib/b"]],
    ["echo $(date) > stamp.txt", ["write stamp.txt"]],
  ])("%j → %j", (command, expected) => {
    expect(show(command)).toEqual(expected);
  });
});

describe("rarer spellings of the same changes", () => {
  test.each([
    ["git mv legacy.ts modern.ts", ["delete legacy.ts", "write modern.ts"]],
    ["env sed -i 's/a/b/' f.txt", ["write f.txt"]],
    ["time sed -i 's/a/b/' f.txt", ["write f.txt"]],
    ["FOO=1 nohup npm start > server.log", ["write server.log"]],
    ["bash -c 'echo x > inner.txt'", ["write inner.txt"]],
    ["cd sub && sh -c 'rm a.txt'", ["delete sub/a.txt"]],
    ["bash -lc \"cat > a.ts <<'EOF'\nx\nEOF\nrm b.ts\"", ["write a.ts", "delete b.ts"]],
    ["diff -u config.orig config.yml > config.patch", ["write config.patch"]],
    // Files named by find or read from stdin are not known from the line: nothing is guessed.
    ["find . -name '*.ts' -exec sed -i 's/a/b/' {} +", []],
    ["xargs sed -i 's/a/b/' < list.txt", []],
  ])("%j → %j", (command, expected) => {
    expect(show(command)).toEqual(expected);
  });

  test("a moved file is listed deleted under its old name even when the branch never touched it", () => {
    expect(shellFileEvents("mv legacy.ts modern.ts")).toEqual([
      { op: "delete", path: "legacy.ts", named: true },
      { op: "write", path: "modern.ts" },
    ]);
  });
});
