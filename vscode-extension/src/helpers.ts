// Pure helpers of the TVMScript extension: no `vscode` import, so they are unit-tested with
// mocha (src/test/helpers.test.ts).

/** The extension's settings (package.json `contributes.configuration`, declared once there). */
export interface Settings {
  serverPath: string;
  interpreterPath: string;
  serverArgs: string[];
  hideUnchangedStages: boolean;
}

/** Reads the settings through a `get(key, default)` accessor (a WorkspaceConfiguration). */
export function readSettings(get: <T>(key: string, fallback: T) => T): Settings {
  const args = get<unknown>("serverArgs", []);
  return {
    serverPath: String(get<string>("serverPath", "") ?? "").trim(),
    interpreterPath: String(get<string>("interpreterPath", "") ?? "").trim(),
    serverArgs: Array.isArray(args) ? args.map(String) : [],
    hideUnchangedStages: Boolean(get<boolean>("previews.hideUnchangedStages", true)),
  };
}

/**
 * The Python interpreter that runs the server: the `tirkit.interpreterPath` setting, else the
 * Python extension's interpreter (its `execCommand`, possibly several words such as
 * `conda run -n env python`), else `python` on Windows and `python3` elsewhere.
 * `${workspaceFolder}` in the setting is replaced by `workspaceFolder`.
 */
export function resolveInterpreter(
  setting: string,
  pythonExtensionCommand: string[] | undefined,
  platform: string,
  workspaceFolder?: string,
): string[] {
  const configured = setting.trim();
  if (configured) {
    const expanded = workspaceFolder
      ? configured.split("${workspaceFolder}").join(workspaceFolder)
      : configured;
    return [expanded];
  }
  const fromExtension = (pythonExtensionCommand ?? []).filter((w) => w.length > 0);
  if (fromExtension.length > 0) {
    return fromExtension;
  }
  return [platform === "win32" ? "python" : "python3"];
}

/** `{command, args}` launching `python -m tirkit.lsp` with the extra server arguments. */
export function serverCommand(interpreter: string[], serverArgs: string[]): {
  command: string;
  args: string[];
} {
  const [command, ...rest] = interpreter;
  return { command, args: [...rest, "-m", "tirkit.lsp", ...serverArgs] };
}

/**
 * How to start the server, first that applies: the `tirkit.serverPath` setting (a `tirls`
 * console script, e.g. a venv's `bin/tirls`); the `tirkit.interpreterPath` setting or the Python
 * extension's interpreter running `-m tirkit.lsp`; the `tirls` that `pip install tirkit` put on
 * `PATH` (`which("tirls")`); else `python3 -m tirkit.lsp`. `${workspaceFolder}` is expanded.
 */
export function serverLaunch(
  s: Settings,
  pythonExtensionCommand: string[] | undefined,
  platform: string,
  workspaceFolder: string | undefined,
  which: (name: string) => string | undefined,
): { command: string; args: string[] } {
  const expand = (text: string) =>
    workspaceFolder ? text.split("${workspaceFolder}").join(workspaceFolder) : text;
  if (s.serverPath) {
    return { command: expand(s.serverPath), args: [...s.serverArgs] };
  }
  const fromExtension = (pythonExtensionCommand ?? []).filter((w) => w.length > 0);
  if (!s.interpreterPath && fromExtension.length === 0) {
    const onPath = which(platform === "win32" ? "tirls.exe" : "tirls");
    if (onPath) {
      return { command: onPath, args: [...s.serverArgs] };
    }
  }
  return serverCommand(
    resolveInterpreter(s.interpreterPath, pythonExtensionCommand, platform, workspaceFolder),
    s.serverArgs);
}

/** One stage as the server's `tirkit/loweringStages` returns it. */
export interface StageInfo {
  index: number;
  name: string;
  changed: boolean;
}

/** The stages to offer in the picker: unchanged ones dropped when `hideUnchanged` is set. */
export function visibleStages(stages: StageInfo[], hideUnchanged: boolean): StageInfo[] {
  return hideUnchanged ? stages.filter((s) => s.changed) : stages.slice();
}

/** A picker label: `"3. ConvertBlocksToOpaque"`, `"(no change)"` as its description. */
export function stageLabel(stage: StageInfo): { label: string; description: string } {
  return {
    label: `${stage.index}. ${stage.name}`,
    description: stage.changed ? "" : "(no change)",
  };
}

/** Path of the read-only virtual document of one stage: `/<unit>/<index>-<stage>.py`. */
export function stagePath(unit: string, stage: StageInfo): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, "_");
  return `/${safe(unit)}/${String(stage.index).padStart(2, "0")}-${safe(stage.name)}.py`;
}

/** One entry of a stage's position map: `[line, col, endLine, endCol]`, 0-based lines. */
export interface MapEntry {
  source: [number, number, number, number];
  stage: [number, number, number, number];
}

function width(r: [number, number, number, number]): number {
  return (r[2] - r[0]) * 10000 + (r[3] - r[1]);
}

function inside(r: [number, number, number, number], line: number): boolean {
  return r[0] <= line && line <= r[2];
}

/** The stage line of the innermost statement whose source range holds source `line`. */
export function sourceToStage(map: MapEntry[], line: number): number | undefined {
  const hits = map.filter((e) => inside(e.source, line));
  if (hits.length === 0) {
    return undefined;
  }
  hits.sort((a, b) => width(a.source) - width(b.source));
  return hits[0].stage[0];
}

/** The source line of the innermost statement whose stage range holds stage `line`. */
export function stageToSource(map: MapEntry[], line: number): number | undefined {
  const hits = map.filter((e) => inside(e.stage, line));
  if (hits.length === 0) {
    return undefined;
  }
  hits.sort((a, b) => width(a.stage) - width(b.stage));
  return hits[0].source[0];
}

/** An entry of the "Show lowering stage…" picker: a pipeline stage, or the final LLVM IR. */
export interface StagePick {
  label: string;
  description: string;
  stage?: StageInfo;
  llvm?: "before" | "after";
}

/** The picker's entries: the visible stages, then the LLVM IR before and after optimisation. */
export function stagePicks(stages: StageInfo[], hideUnchanged: boolean): StagePick[] {
  const picks: StagePick[] = visibleStages(stages, hideUnchanged).map(
    (stage) => ({ ...stageLabel(stage), stage }));
  picks.push({ label: "LLVM IR (before optimisation)", description: "llvm", llvm: "before" });
  picks.push({ label: "LLVM IR (after optimisation)", description: "llvm", llvm: "after" });
  return picks;
}

/** Split factors typed by the user ("None, 8", "[-1, 4, 4]") as the server's `factors`
 *  argument (null: inferred), or an error message for the input box. */
export function parseFactors(text: string): (number | null)[] | string {
  const parts = text.replace(/[[\]()]/g, "").split(",").map((p) => p.trim()).filter((p) => p);
  if (parts.length < 2) {
    return "give at least two factors, e.g. None, 8";
  }
  const out: (number | null)[] = [];
  for (const p of parts) {
    if (/^(none|null|_|-1)$/i.test(p)) {
      out.push(null);
    } else if (/^[1-9]\d*$/.test(p)) {
      out.push(Number(p));
    } else {
      return `"${p}" is not a positive integer or None`;
    }
  }
  return out.filter((f) => f === null).length > 1 ? "at most one factor may be None" : out;
}
