"""A TypeScript client generated from openapi.yaml (openapi-typescript + openapi-fetch, their
default settings), type-checked with ``tsc --strict`` and run with Node against gunicorn.

The README's request bodies are written into the program as typed literals, so they must
compile against the generated request types; the spec's request examples are then sent
through the client, and every answer must be a 200. Node and npm come from Debian's
packages (``make test`` installs them where it may); without them the test is skipped and
says how to get them. The npm packages are pinned in tests/client_ts/package-lock.json.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.serving import ROOT, Gunicorn

PACKAGE = Path(__file__).parent / "client_ts"
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="Node.js and npm are needed: sudo apt-get install nodejs npm",
)


def run(command: list[str], cwd: Path, timeout: float = 240) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(command)}:\n{output}"
    return output


def readme_bodies() -> dict[str, Any]:
    """The bodies the README posts with curl, by operation path."""
    bodies: dict[str, Any] = {}
    for path, body in re.findall(r"curl -s localhost:8000(\S+) [^\n]*?-d '(.*?)'", README, flags=re.DOTALL):
        bodies[path] = json.loads(body)
    for path, name in re.findall(r"curl -s localhost:8000(\S+) [^\n]*-d @(\S+)", README):
        bodies[path] = json.loads((ROOT / name).read_text(encoding="utf-8"))
    return bodies


def examples() -> list[tuple[str, Any]]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    out = []
    for path, item in spec["paths"].items():
        content = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json", {})
        out += [(path, example["value"]) for example in content.get("examples", {}).values()]
    return out


TYPE_OF = {
    "/v1/tricks/legal-cards": "LegalCardsRequest",
    "/v1/tricks/winner": "WinnerRequest",
    "/v1/deals/score": "ScoreRequest",
    "/v1/deals/evaluate": "EvaluateRequest",
}


def program() -> str:
    typed = "\n".join(
        f'const readme{i}: Schemas["{TYPE_OF[path]}"] = {json.dumps(body)};'
        for i, (path, body) in enumerate(readme_bodies().items())
    )
    calls = [(path, f"readme{i}") for i, path in enumerate(readme_bodies())]
    calls += [(path, f"examples[{i}]") for i, (path, _) in enumerate(examples())]
    posts = "\n".join(
        f'  answers.push((await client.POST("{path}", {{ body: {value} }})).response.status);' for path, value in calls
    )
    return f"""import createClient from "openapi-fetch";
import type {{ components, paths }} from "./schema.js";
import {{ readFileSync }} from "node:fs";

type Schemas = components["schemas"];
{typed}
// The spec's examples, read at run time (their types are checked by the service's answers).
const examples = JSON.parse(readFileSync("examples.json", "utf-8"));
const client = createClient<paths>({{ baseUrl: process.argv[2] }});
const answers: number[] = [];
async function main(): Promise<void> {{
{posts}
  console.log(JSON.stringify(answers));
}}
await main();
"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("client_ts")
    shutil.copy(PACKAGE / "package.json", work)
    shutil.copy(PACKAGE / "package-lock.json", work)
    run(["npm", "ci", "--no-audit", "--no-fund"], work)
    generated = run(
        ["npx", "--no-install", "openapi-typescript", str(ROOT / "openapi.yaml"), "-o", "schema.d.ts"], work
    )
    # (npm's own notes about the machine's npm configuration are not the generator's)
    own = [line for line in generated.splitlines() if not line.startswith("npm warn")]
    assert not [line for line in own if "warn" in line.lower()], generated
    (work / "examples.json").write_text(json.dumps([body for _, body in examples()]), encoding="utf-8")
    (work / "client.ts").write_text(program(), encoding="utf-8")
    return work


@pytest.fixture(scope="module")
def server() -> Iterator[Gunicorn]:
    with Gunicorn() as g:
        yield g


def test_the_readme_bodies_compile_under_tsc_strict(workdir: Path) -> None:
    run(["npx", "--no-install", "tsc", "--strict", "--noEmit", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "client.ts"], workdir)  # fmt: skip


def test_the_typescript_client_gets_200_for_every_readme_body_and_example(workdir: Path, server: Gunicorn) -> None:
    run(["npx", "--no-install", "tsc", "--strict", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "client.ts"], workdir)  # fmt: skip
    output = run(["node", "client.js", server.base], workdir, timeout=60)
    statuses = json.loads(output.strip().splitlines()[-1])
    assert statuses == [200] * (len(readme_bodies()) + len(examples()))
