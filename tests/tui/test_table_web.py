"""``play --variant cribbage --web`` in a real browser: the command serves the table with
textual-serve, headless Chromium opens it (driven through the Chrome DevTools protocol over
aiohttp's websocket client, which textual-serve already needs), a throw and a card are chosen
by clicks on the cards, and the scores are read back from the page's terminal."""

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import parse_card

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# textual-serve's page keeps its xterm.js terminal in a closure: a setter on Object.prototype
# catches the object that takes the fit addon (the page's terminal view) as it is built
HOOK = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(v) {
    window.__table = this;
    Object.defineProperty(this, "fitAddon", {value: v, writable: true, configurable: true});
  },
});
"""
ROWS = """(() => {
  const t = window.__table && window.__table.terminal;
  if (!t) return "";
  const out = [];
  for (let y = 0; y < t.rows; y++) out.push(t.buffer.active.getLine(y).translateToString(true));
  return out.join("\\n");
})()"""
CELLS = """(() => {
  const t = window.__table.terminal;
  const r = t.element.querySelector(".xterm-screen").getBoundingClientRect();
  return [r.left, r.top, r.width / t.cols, r.height / t.rows];
})()"""
TRACK = re.compile(r"^ *(you|they) +\|[.:oO]+\| +(\d+)", re.M)


class Page:
    """One tab of headless Chromium, over the DevTools protocol."""

    def __init__(self, ws):
        self.ws, self.n = ws, 0

    async def call(self, method, **params):
        self.n += 1
        await self.ws.send_json({"id": self.n, "method": method, "params": params})
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("id") == self.n:
                assert "error" not in data, data
                return data["result"]

    async def value(self, expression):
        return (await self.call("Runtime.evaluate", expression=expression, returnByValue=True))[
            "result"
        ].get("value")

    async def text_with(self, pattern, seconds=600):
        """The terminal's text, once ``pattern`` is in it."""
        for _ in range(int(seconds / 0.25)):
            text = await self.value(ROWS) or ""
            if re.search(pattern, text):
                return text
            await asyncio.sleep(0.25)
        raise AssertionError(f"{pattern!r} never came:\n{text}")

    async def click(self, col: int, row: int):
        left, top, w, h = await self.value(CELLS)
        at = {"x": left + (col + 0.5) * w, "y": top + (row + 0.5) * h}
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            await self.call(
                "Input.dispatchMouseEvent", type=kind, button="left", clickCount=1, **at
            )
            await asyncio.sleep(0.05)

    async def key(self, key: str, text: str = ""):
        code = 13 if key == "Enter" else ord(key.upper())
        for kind in ("keyDown", "keyUp"):
            await self.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                windowsVirtualKeyCode=code,
                **({"text": text} if kind == "keyDown" and text else {}),
            )


def cards_at(text: str):
    """{card: (column, row)} of the hand's faces on the screen."""
    out = {}
    for row, line in enumerate(text.splitlines()):
        for m in re.finditer(r"│(\w\w)│", line):
            out[m[1]] = (m.start(1), row)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _drive(url: str, devtools: str):
    import aiohttp

    async with aiohttp.ClientSession() as http:
        tabs = await (await http.get(f"{devtools}/json")).json()
        tab = next(t for t in tabs if t["type"] == "page")
        async with http.ws_connect(tab["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            page = Page(ws)
            await page.call("Page.enable")
            await page.call("Page.addScriptToEvaluateOnNewDocument", source=HOOK)
            await page.call("Page.navigate", url=url)
            text = await page.text_with(r"throw 2 to \w+ crib")
            hand = cards_at(text)
            first, second = list(hand)[:2]
            for card in (first, second):
                await page.click(*hand[card])
            await page.key("Enter", "\r")
            text = await page.text_with(r"your card \(count \d+\)")
            count = int(re.search(r"your card \(count (\d+)\)", text)[1])
            fits = [c for c in cards_at(text) if count + VALUE[RANK[parse_card(c)]] <= 31]
            await page.click(*cards_at(text)[fits[0]])
            text = await page.text_with(rf"you lay {fits[0]}, count")
            await page.key("q", "q")
            return first, second, fits[0], text


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium")
def test_the_table_served_to_a_browser_takes_clicks(tmp_path):
    port, rec = free_port(), tmp_path / "web.txt"
    server = subprocess.Popen(
        [sys.executable, "-m", "cribsolve", "play", "--variant", "cribbage", "--web"]
        + ["--port", str(port), "--seed", "3", "--game-length", "31"]
        + ["--opponent-policy", "greedy", "--record", str(rec)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    browser = subprocess.Popen(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0"]
        + [f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}", "--window-size=1200,800"]
        + ["about:blank"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        devtools = next(
            m[1] for line in browser.stderr if (m := re.search(r"ws://([\d.:]+)/", line))
        )
        for _ in range(100):  # the server listening
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        first, second, laid, text = asyncio.run(
            _drive(f"http://127.0.0.1:{port}/", f"http://{devtools}")
        )
    finally:
        browser.terminate()
        server.send_signal(signal.SIGINT)
        out = server.communicate(timeout=30)[0]
        browser.wait(timeout=30)
    assert f"on http://127.0.0.1:{port}" in re.sub(r"\s+", " ", out)
    assert f"you throw {first} {second}" in text
    scores = dict(TRACK.findall(text))
    board = re.findall(r"\[you (\d+), they (\d+)\]", text)[-1]
    assert (scores["you"], scores["they"]) == board  # the board's pegs, the log's scores
    assert "seed: 3" in rec.read_text() and os.path.getsize(rec) > 0
