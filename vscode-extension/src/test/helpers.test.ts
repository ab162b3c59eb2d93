// Unit tests of the pure helpers and the injection grammar's rules (mocha; `npm run test:unit`).
// The grammar is also tokenized against the Python grammar by vscode-tmgrammar-test
// (test/grammar/*.test.py, `npm run test:grammar`).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  MapEntry,
  parseFactors,
  readSettings,
  resolveInterpreter,
  serverCommand,
  serverLaunch,
  sourceToStage,
  stageLabel,
  stagePath,
  stagePicks,
  stageToSource,
  visibleStages,
} from "../helpers";

describe("interpreter resolution", () => {
  it("interpreter: the setting wins, with ${workspaceFolder} expanded", () => {
    assert.deepEqual(resolveInterpreter(" ${workspaceFolder}/.venv/bin/python ", ["py"], "linux",
      "/ws"), ["/ws/.venv/bin/python"]);
  });

  it("interpreter: else the Python extension's command, else python3 / python", () => {
    assert.deepEqual(resolveInterpreter("", ["conda", "run", "-n", "x", "python"], "linux"),
      ["conda", "run", "-n", "x", "python"]);
    assert.deepEqual(resolveInterpreter("", undefined, "linux"), ["python3"]);
    assert.deepEqual(resolveInterpreter("", [], "win32"), ["python"]);
  });

  it("server command runs python -m tirkit.lsp with the extra arguments", () => {
    assert.deepEqual(serverCommand(["conda", "run", "python"], ["--log-file", "/tmp/l"]), {
      command: "conda", args: ["run", "python", "-m", "tirkit.lsp", "--log-file", "/tmp/l"] });
  });

  it("interpreter: ${workspaceFolder} stays as written without a workspace folder", () => {
    assert.deepEqual(resolveInterpreter("${workspaceFolder}/py", undefined, "linux"),
      ["${workspaceFolder}/py"]);
  });

  it("interpreter: empty words from the Python extension are dropped", () => {
    assert.deepEqual(resolveInterpreter("  ", ["", "/opt/py/bin/python", ""], "darwin"),
      ["/opt/py/bin/python"]);
    assert.deepEqual(resolveInterpreter("", [""], "darwin"), ["python3"]);
  });
});

describe("settings", () => {
  it("settings are read with their declared defaults", () => {
    const values: Record<string, unknown> = { serverArgs: ["-v", 3] };
    const s = readSettings(<T>(key: string, fallback: T) =>
      (key in values ? values[key] : fallback) as T);
    assert.deepEqual(s, { serverPath: "", interpreterPath: "", serverArgs: ["-v", "3"],
      hideUnchangedStages: true });
  });

  it("settings in package.json are declared once, with the keys the code reads", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
    const keys = Object.keys(pkg.contributes.configuration.properties).sort();
    assert.deepEqual(keys, ["tirkit.interpreterPath", "tirkit.previews.hideUnchangedStages",
      "tirkit.serverArgs", "tirkit.serverPath", "tirkit.trace.server"]);
    const titles = pkg.contributes.commands.map((c: { title: string }) => c.title);
    assert.deepEqual(titles, ["Show lowering stage…", "Open pipeline explorer", "Restart server"]);
  });

  it("settings: values are trimmed and coerced, a non-array serverArgs is ignored", () => {
    const values: Record<string, unknown> = {
      interpreterPath: "  /usr/bin/python3 ", serverArgs: "--verbose",
      "previews.hideUnchangedStages": false, serverPath: " /v/bin/tirls ",
    };
    const s = readSettings(<T>(key: string, fallback: T) =>
      (key in values ? values[key] : fallback) as T);
    assert.deepEqual(s, { serverPath: "/v/bin/tirls", interpreterPath: "/usr/bin/python3",
      serverArgs: [], hideUnchangedStages: false });
  });
});

describe("lowering previews", () => {
  it("stage picker: unchanged stages hidden on request, labelled otherwise", () => {
    const stages = [{ index: 0, name: "Input", changed: true },
      { index: 1, name: "Simplify", changed: false }];
    assert.deepEqual(visibleStages(stages, true).map((s) => s.name), ["Input"]);
    assert.equal(visibleStages(stages, false).length, 2);
    assert.deepEqual(stageLabel(stages[1]), { label: "1. Simplify", description: "(no change)" });
    assert.equal(stagePath("my func", stages[1]), "/my_func/01-Simplify.py");
  });

  it("position map: innermost statement both ways", () => {
    const map: MapEntry[] = [
      { source: [3, 0, 12, 0], stage: [3, 0, 11, 0] },
      { source: [8, 4, 12, 0], stage: [5, 4, 11, 0] },
      { source: [13, 12, 13, 40], stage: [10, 12, 10, 40] },
    ];
    assert.equal(sourceToStage(map, 9), 5);
    assert.equal(sourceToStage(map, 13), 10);
    assert.equal(sourceToStage(map, 20), undefined);
    assert.equal(stageToSource(map, 10), 13);
    assert.equal(stageToSource(map, 4), 3);
  });
});

describe("injection grammar", () => {
  it("injection grammar highlights T. constructs", () => {
    const file = path.join(__dirname, "..", "..", "syntaxes", "tvmscript.injection.tmLanguage.json");
    const grammar = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(grammar.scopeName, "tvmscript.injection");
    assert.match(grammar.injectionSelector, /source\.python/);
    const re = (name: string) => new RegExp(grammar.repository[name].match);
    assert.deepEqual(re("decorator").exec("@T.prim_func")?.slice(1), ["@", "T", ".", "prim_func"]);
    assert.equal(re("scope-construct").exec('with T.block("update"):')?.[3], "block");
    assert.equal(re("scope-construct").exec("for i in T.vectorized(4):")?.[3], "vectorized");
    assert.equal(re("dtype").exec("T.float32x4(0)")?.[3], "float32x4");
    assert.equal(re("dtype").exec('A: T.Buffer((4,), "int8")')?.[3], "Buffer");
    assert.equal(re("namespace-member").exec("T.exp(x)")?.[3], "exp");
    assert.equal(re("scope-construct").exec("Tx.block"), null);
  });
});

describe("stage picker", () => {
  it("lists the visible stages, then the LLVM IR before and after optimisation", () => {
    const stages = [
      { index: 0, name: "Input", changed: true },
      { index: 1, name: "LowerInitBlock", changed: false },
      { index: 2, name: "LowerIntrin", changed: true },
    ];
    const picks = stagePicks(stages, true);
    assert.deepStrictEqual(picks.map((p) => p.stage?.name ?? p.llvm),
      ["Input", "LowerIntrin", "before", "after"]);
    assert.strictEqual(stagePicks(stages, false).length, 5);
  });
});

describe("schedule actions", () => {
  it("split factors: None/-1/_ inferred, integers kept, bad input explained", () => {
    assert.deepEqual(parseFactors("None, 8"), [null, 8]);
    assert.deepEqual(parseFactors("[-1, 4, 16]"), [null, 4, 16]);
    assert.deepEqual(parseFactors("32,4"), [32, 4]);
    assert.match(parseFactors("8") as string, /at least two/);
    assert.match(parseFactors("None, x") as string, /"x"/);
    assert.match(parseFactors("None, None") as string, /at most one/);
  });
});

describe("server launch", () => {
  const base = { serverPath: "", interpreterPath: "", serverArgs: ["--x"], hideUnchangedStages: true };
  const none = () => undefined;
  it("serverPath: the tirls console script, with ${workspaceFolder} expanded", () => {
    assert.deepEqual(serverLaunch({ ...base, serverPath: "${workspaceFolder}/.venv/bin/tirls" },
      ["py"], "linux", "/ws", none), { command: "/ws/.venv/bin/tirls", args: ["--x"] });
  });
  it("an interpreter (setting or Python extension) runs -m tirkit.lsp", () => {
    assert.deepEqual(serverLaunch({ ...base, interpreterPath: "/p/python" }, undefined, "linux",
      undefined, () => "/usr/bin/tirls"), { command: "/p/python", args: ["-m", "tirkit.lsp", "--x"] });
    assert.deepEqual(serverLaunch(base, ["conda", "run", "python"], "linux", undefined,
      () => "/usr/bin/tirls").args, ["run", "python", "-m", "tirkit.lsp", "--x"]);
  });
  it("else the wheel's tirls on PATH, else python3 -m tirkit.lsp", () => {
    assert.deepEqual(serverLaunch(base, undefined, "linux", undefined,
      (n) => (n === "tirls" ? "/venv/bin/tirls" : undefined)), { command: "/venv/bin/tirls", args: ["--x"] });
    assert.deepEqual(serverLaunch(base, undefined, "linux", undefined, none),
      { command: "python3", args: ["-m", "tirkit.lsp", "--x"] });
  });
});
