"""The README's examples, read as a reader runs them: the request, and the answer it shows.

An example is a ``curl … localhost:8000…`` command (its continuation lines joined) and the
``# …`` lines right after it, which show the answer: JSON (one document, or NDJSON's lines one
after another) or text lines (a CSV). A shown answer may leave parts out as ``[...]``: any
JSON value matches there, or any text within a line. Tests send each request (to the Flask
test client, a gunicorn or the image) and hold the answer to what the README shows.

A command example is a ``console`` block whose first line is ``$ tarot-rules …`` and whose
other lines are what the command prints (a line ``[...]`` stands for any number of lines).
"""

from __future__ import annotations

import json
import re
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
    shown_lines: tuple[str, ...]
    """The answer as the README shows it, line by line (none when it shows no answer)."""

    @property
    def shown(self) -> str | None:
        """The shown answer as one text, its lines joined by spaces (JSON reads the same)."""
        return " ".join(self.shown_lines) or None

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
        found.append(_example(start + 1, command, tuple(shown)))
    return found


def _closed(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return False
    return True


def _example(line: int, command: str, shown: tuple[str, ...]) -> Example:
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


def shown_values(shown: str) -> list[Any]:
    """The shown NDJSON answer: its JSON documents one after another, however they are wrapped."""
    decoder = json.JSONDecoder()
    text = shown.replace("[...]", json.dumps(ELIDED))
    values, at = [], 0
    while text[at:].strip():
        while text[at].isspace():
            at += 1
        value, at = decoder.raw_decode(text, at)
        values.append(value)
    return values


def lines_differ(shown: list[str], got: list[str]) -> str | None:
    """Where the text lines ``got`` are not the ``shown`` ones, or None: ``[...]`` within a line
    matches any text, and a line of ``[...]`` alone any number of lines."""
    pattern = "".join(
        r"(?:.*\n)*?" if line.strip() == "[...]" else ".*?".join(map(re.escape, line.split("[...]"))) + r"\n"
        for line in shown
    )
    if re.fullmatch(pattern, "".join(line + "\n" for line in got)):
        return None
    for n, (a, b) in enumerate(zip(shown, got, strict=False)):
        if "[...]" not in a and a != b:
            return f"line {n + 1}: {b!r}, the README shows {a!r}"
    return f"{len(got)} lines, the README shows {len(shown)}:\n" + "\n".join(got)


@dataclass(frozen=True)
class Command:
    line: int
    words: list[str]
    """The command's words, ``tarot-rules`` first."""
    printed: list[str]
    """What the README shows it prints, line by line."""

    def __str__(self) -> str:
        return f"README.md:{self.line} {' '.join(self.words)}"


def commands(readme: Path = README) -> list[Command]:
    """The README's ``console`` blocks that run ``tarot-rules``."""
    found = []
    lines = readme.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "```console" and lines[i + 1].startswith("$ tarot-rules "):
            end = lines.index("```", i + 1)
            found.append(Command(i + 2, shlex.split(lines[i + 1][2:]), lines[i + 2 : end]))
    return found
