"""The README's curl examples, read as a reader runs them: the request, and the answer it shows.

An example is a ``curl … localhost:8000…`` command (its continuation lines joined) and the
``# …`` lines right after it, which show the answer. A shown answer may leave parts out as
``[...]``: any value matches there. Tests send each request (to the Flask test client, a
gunicorn or the image) and hold the answer to what the README shows.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ELIDED = "\0elided"


@dataclass(frozen=True)
class Example:
    line: int
    """Where the command starts in the README, from 1."""
    method: str
    path: str
    """With its query string."""
    headers: dict[str, str]
    body: bytes | None
    shown: str | None
    """The answer as the README shows it, or None when it shows none."""

    def __str__(self) -> str:
        return f"README.md:{self.line} {self.method} {self.path}"


def examples(readme: Path = README) -> list[Example]:
    lines = readme.read_text(encoding="utf-8").splitlines()
    found = []
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        if not (text.startswith("curl ") and "localhost:8000" in text):
            i += 1
            continue
        start = i
        command = text
        # Continued by a backslash, or by a quoted body that runs on.
        while command.endswith("\\") or not _closed(command):
            i += 1
            command = command.removesuffix("\\") + " " + lines[i].strip()
        i += 1
        shown = []
        while i < len(lines) and lines[i].strip().startswith("# "):
            shown.append(lines[i].strip()[2:])
            i += 1
        found.append(_example(start + 1, command, " ".join(shown) or None))
    return found


def _closed(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return False
    return True


def _example(line: int, command: str, shown: str | None) -> Example:
    words = shlex.split(command)
    headers: dict[str, str] = {}
    body: bytes | None = None
    url = ""
    k = 1
    while k < len(words):
        word = words[k]
        if word in ("-H", "--header"):
            name, _, value = words[k + 1].partition(":")
            headers[name.strip()] = value.strip()
            k += 2
        elif word in ("-d", "--data", "--data-binary"):
            data = words[k + 1]
            body = (ROOT / data[1:]).read_bytes() if data.startswith("@") else data.encode()
            k += 2
        elif word.startswith("-"):
            k += 1
        else:
            url = word
            k += 1
    path = url[url.index("localhost:8000") + len("localhost:8000") :]
    return Example(line, "POST" if body is not None else "GET", path, headers, body, shown)


def shown_value(shown: str) -> Any:
    """The shown answer as JSON, each ``[...]`` standing for any value."""
    return json.loads(shown.replace("[...]", json.dumps(ELIDED)))


def differences(shown: Any, got: Any, pointer: str = "") -> list[str]:
    """Where ``got`` is not what the README shows, as JSON pointers with both values."""
    if shown == ELIDED:
        return []
    if isinstance(shown, dict) and isinstance(got, dict):
        if set(shown) != set(got):
            return [f"{pointer or '/'}: keys {sorted(got)}, the README shows {sorted(shown)}"]
        return [d for key in shown for d in differences(shown[key], got[key], f"{pointer}/{key}")]
    if isinstance(shown, list) and isinstance(got, list) and len(shown) == len(got):
        return [d for n, (a, b) in enumerate(zip(shown, got, strict=True)) for d in differences(a, b, f"{pointer}/{n}")]
    if shown != got or type(shown) is not type(got):
        return [f"{pointer or '/'}: {got!r}, the README shows {shown!r}"]
    return []
