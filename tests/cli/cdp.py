"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (stdlib only):
starts Debian's headless chromium, opens a page, clicks with real mouse events, evaluates
JavaScript, records console errors and exceptions, takes screenshots.

Used by the pipeline explorer's browser test (tests/cli/test_tirc_html.py). ``find_chromium``
returns the browser or the reason it cannot be had; ``ensure_chromium`` tries ``apt-get install
chromium`` once when running as root with apt available (what ``make test`` on a fresh Debian
machine needs).
"""
from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The path of an installed chromium, or None."""
    env = os.environ.get("TIRKIT_CHROMIUM")
    if env and Path(env).exists():
        return env
    return next((p for p in map(shutil.which, NAMES) if p), None)


def ensure_chromium() -> tuple[str | None, str]:
    """``(path, "")`` or ``(None, reason)``; installs Debian's chromium when it can."""
    found = find_chromium()
    if found:
        return found, ""
    if os.environ.get("TIRKIT_NO_BROWSER_INSTALL"):
        return None, "chromium not installed and TIRKIT_NO_BROWSER_INSTALL is set"
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return None, "chromium not installed (needs `apt-get install chromium` as root)"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log = []
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends",
                                        "chromium"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900,
                              check=False)
        log.append(proc.stdout[-500:] + proc.stderr[-500:])
        if proc.returncode != 0:
            return None, f"`{' '.join(cmd)}` failed: {log[-1].strip()[-300:]}"
    found = find_chromium()
    return (found, "") if found else (None, "apt-get installed no chromium binary")


def _above(fd: int, low: int) -> int:
    """``fd`` moved to a descriptor number >= ``low`` (the old one is closed)."""
    import fcntl  # pylint: disable=import-outside-toplevel

    new = fcntl.fcntl(fd, fcntl.F_DUPFD, low)
    os.close(fd)
    return new


class Browser:
    """One headless chromium with one page, driven over the DevTools pipe."""

    def __init__(self, binary: str, width: int = 1400, height: int = 900) -> None:
        self.profile = tempfile.mkdtemp(prefix="tirkit-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # above 4, so that placing them at 3 and 4 in the child cannot overwrite one another
        to_child_r, from_child_w = (_above(fd, 10) for fd in (to_child_r, from_child_w))
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-dev-shm-usage", "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                "about:blank"]

        def wire() -> None:  # in the child: fds 3 and 4 are the DevTools pipe
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.log = Path(self.profile) / "stderr.txt"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(args, pass_fds=(3, 4),  # pylint: disable=consider-using-with
                                         preexec_fn=wire, stdout=subprocess.DEVNULL, stderr=log)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""
        page = next(t for t in self.call("Target.getTargets")["targetInfos"]
                    if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True, session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    # ------------------------------------------------------------------ protocol
    def _read(self, timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            ready, _, _ = select.select([self._from_child], [], [], 0.5)
            if ready:
                chunk = os.read(self._from_child, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the DevTools pipe: "
                                       + self.log.read_text(errors="replace")[-800:])
                self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, timeout: float = 60, session: bool = True,
             **params: Any) -> dict[str, Any]:
        """Send one command (to the page's session unless ``session=False``); its result."""
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, method: str, timeout: float = 60) -> dict[str, Any]:
        """Wait until an event named ``method`` has arrived; it is returned."""
        for ev in self.events:
            if ev["method"] == method:
                return ev
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ev = self._read(deadline - time.monotonic())
            if "method" in ev:
                self.events.append(ev)
                if ev["method"] == method:
                    return ev
        raise TimeoutError(f"no {method} event")

    # ------------------------------------------------------------------ page
    def open(self, url: str) -> None:
        """Navigate and wait for the load event."""
        self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (exceptions raise)."""
        out = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def click(self, selector: str) -> None:
        """A real left click (mouse pressed and released) at the middle of the element."""
        box = self.eval(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        " if (!e) return null; e.scrollIntoView({block: 'center'});"
                        " const r = e.getBoundingClientRect();"
                        " return [r.x + Math.min(r.width / 2, 40), r.y + r.height / 2]; })()")
        if box is None:
            raise LookupError(f"no element matches {selector}")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1],
                      button="left", clickCount=1)

    def screenshot(self, path: Path) -> Path:
        """A PNG of the viewport."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        out = []
        for ev in self.events:
            p = ev.get("params", {})
            if ev["method"] == "Runtime.exceptionThrown":
                out.append(json.dumps(p.get("exceptionDetails", {}))[:500])
            elif ev["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error",
                                                                                 "assert"):
                out.append(json.dumps(p.get("args", []))[:500])
            elif ev["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", "")[:500])
        return out

    def close(self) -> None:
        """End the browser and remove its profile."""
        try:
            self.call("Browser.close", session=False, timeout=10)
        except Exception:  # pylint: disable=broad-except
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)
