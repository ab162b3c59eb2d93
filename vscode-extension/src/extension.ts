// The TVMScript extension: launches tirkit's `tirls` for Python files and adds the lowering
// preview, pipeline explorer (a webview) and restart commands. Logic that needs no VS Code API lives in helpers.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import {
  MapEntry,
  StageInfo,
  parseFactors,
  readSettings,
  serverLaunch,
  sourceToStage,
  stagePath,
  stagePicks,
} from "./helpers";

const SCHEME = "tirkit-stage";

/** The first `name` in a directory of PATH, if any. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) {
      return candidate;
    }
  }
  return undefined;
}
let client: LanguageClient | undefined;
const stageTexts = new Map<string, string>();
const changed = new vscode.EventEmitter<vscode.Uri>();

function settings(): ReturnType<typeof readSettings> {
  const cfg = vscode.workspace.getConfiguration("tirkit");
  return readSettings((key, fallback) => cfg.get(key, fallback));
}

async function pythonExtensionCommand(resource?: vscode.Uri): Promise<string[] | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) {
    return undefined;
  }
  try {
    const api = ext.isActive ? ext.exports : await ext.activate();
    return api?.settings?.getExecutionDetails?.(resource)?.execCommand;
  } catch {
    return undefined;
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const s = settings();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const { command, args } = serverLaunch(
    s, await pythonExtensionCommand(), process.platform, folder, onPath);
  const serverOptions: ServerOptions = { command, args, transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" }],
    outputChannelName: "TVMScript (tirls)",
  };
  client = new LanguageClient("tirkit", "TVMScript (tirls)", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

async function restartServer(context: vscode.ExtensionContext): Promise<void> {
  if (client) {
    await client.stop();
    client = undefined;
  }
  await startClient(context);
  vscode.window.setStatusBarMessage("TVMScript: server restarted", 3000);
}

interface StagesReply { unit?: string; stages: StageInfo[]; error?: string; note?: string }
interface StageReply {
  text?: string; name?: string; error?: string; positionMap?: MapEntry[];
  llvm?: { available?: boolean; before?: string; after?: string; message?: string };
}

async function showLoweringStage(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !client) {
    vscode.window.showWarningMessage("TVMScript: open a Python file with TVMScript first.");
    return;
  }
  const textDocument = { uri: editor.document.uri.toString() };
  const position = client.code2ProtocolConverter.asPosition(editor.selection.active);
  const reply = await client.sendRequest<StagesReply>(
    "tirkit/loweringStages", { textDocument, position });
  if (reply.error || !reply.unit) {
    vscode.window.showWarningMessage(`TVMScript: ${reply.error ?? "no unit here"}`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    stagePicks(reply.stages, settings().hideUnchangedStages),
    { placeHolder: `Lowering stage of ${reply.unit}${reply.note ? ` (${reply.note})` : ""}` });
  if (!picked) {
    return;
  }
  if (picked.llvm) {
    await showLlvm(textDocument, position, reply, picked.llvm);
    return;
  }
  if (!picked.stage) {
    return;
  }
  const stage = await client.sendRequest<StageReply>(
    "tirkit/loweringStage", { textDocument, position, stage: picked.stage.index });
  if (stage.error || stage.text === undefined) {
    vscode.window.showWarningMessage(`TVMScript: ${stage.error ?? "no text"}`);
    return;
  }
  const uri = vscode.Uri.from({ scheme: SCHEME, path: stagePath(reply.unit, picked.stage) });
  stageTexts.set(uri.toString(), stage.text);
  changed.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, "python");
  const shown = await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
  const line = sourceToStage(stage.positionMap ?? [], editor.selection.active.line);
  if (line !== undefined) {
    const range = new vscode.Range(line, 0, line, 0);
    shown.revealRange(range, vscode.TextEditorRevealType.InCenter);
    shown.selection = new vscode.Selection(range.start, range.start);
  }
}

async function showLlvm(textDocument: { uri: string }, position: unknown, reply: StagesReply,
                        which: "before" | "after"): Promise<void> {
  if (!client || !reply.unit) {
    return;
  }
  const last = reply.stages[reply.stages.length - 1];
  const stage = await client.sendRequest<StageReply>(
    "tirkit/loweringStage", { textDocument, position, stage: last.index, llvm: true });
  const text = stage.llvm?.[which];
  if (!text) {
    vscode.window.showWarningMessage(
      `TVMScript: ${stage.error ?? stage.llvm?.message ?? "no LLVM IR for this unit"}`);
    return;
  }
  const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${reply.unit}.${which}.ll` });
  stageTexts.set(uri.toString(), text);
  changed.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, "llvm");
  await vscode.window.showTextDocument(doc, {
    viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
}

interface ExplorerReply { unit?: string; html?: string; error?: string }

async function openPipelineExplorer(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !client) {
    vscode.window.showWarningMessage("TVMScript: open a Python file with TVMScript first.");
    return;
  }
  const textDocument = { uri: editor.document.uri.toString() };
  const position = client.code2ProtocolConverter.asPosition(editor.selection.active);
  const reply = await client.sendRequest<ExplorerReply>(
    "tirkit/pipelineExplorer", { textDocument, position });
  if (reply.error || !reply.html) {
    vscode.window.showWarningMessage(`TVMScript: ${reply.error ?? "no explorer for this unit"}`);
    return;
  }
  // the page is self-contained (inline script and style, its own CSP, no resources to load)
  const panel = vscode.window.createWebviewPanel(
    "tirkitPipelineExplorer", `Pipeline: ${reply.unit}`, vscode.ViewColumn.Beside,
    { enableScripts: true, localResourceRoots: [] });
  panel.webview.html = reply.html;
}

interface SchedulePayload { ask?: string | null; target?: string; args?: Record<string, unknown> }

// A schedule code action that needs an argument (split's factors): ask, then let the server
// apply it (`tirkit.applySchedule`, forwarded to the server by the language client).
async function askAndSchedule(payload: SchedulePayload): Promise<void> {
  let args = payload.args ?? {};
  if (payload.ask === "factors") {
    const value = await vscode.window.showInputBox({
      prompt: `Split loop ${payload.target}: factors, outermost first (None: inferred)`,
      value: "None, 8",
      validateInput: (text) => {
        const parsed = parseFactors(text);
        return typeof parsed === "string" ? parsed : undefined;
      },
    });
    if (value === undefined) {
      return;
    }
    args = { ...args, factors: parseFactors(value) };
  }
  await vscode.commands.executeCommand("tirkit.applySchedule", { ...payload, args });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => stageTexts.get(uri.toString()) ?? "",
    }),
    vscode.commands.registerCommand("tirkit.showLoweringStage", showLoweringStage),
    vscode.commands.registerCommand("tirkit.restartServer", () => restartServer(context)),
    vscode.commands.registerCommand("tirkit.openPipelineExplorer", openPipelineExplorer),
    vscode.commands.registerCommand("tirkit.schedule", askAndSchedule),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
