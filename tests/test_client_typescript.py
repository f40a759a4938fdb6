"""A TypeScript client generated from openapi.yaml (openapi-typescript + openapi-fetch, their
default settings), type-checked with ``tsc --strict`` and run with Node against gunicorn.

The README's request bodies are written into the program as typed literals, so they must
compile against the generated request types; the spec's request examples are then sent
through the client, and every answer must be a 200. Batches of records (tests/clientbatch.py)
are sent in their JSON form by a client made as docs/clients.md makes it, and its typed items are read
and compared with what evaluateDeal answers for each record. Node and npm come from Debian's
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

from service.contract.games import SCORE_GAME
from tests.clientbatch import BATCHES, NOT_A_DEAL, NOT_A_DEAL_ERRORS, tricks
from tests.commandline import stub
from tests.serving import ROOT, Gunicorn

PACKAGE = Path(__file__).parent / "client_ts"
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLIENTS = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
"""The README's Clients section sends its readers here, for the TypeScript example."""

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
    "/v1/games/score": "GameScoreRequest",
    "/v1/tournaments/seating": "SeatingRequest",
    "/v1/tournaments/standings": "StandingsRequest",
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


def readme_media_types() -> str:
    """The media types the TypeScript example of docs/clients.md makes its openapi-fetch client for."""
    media: str = re.findall(r"createClient<paths, ([^>]+)>\(", CLIENTS)[0]
    return media


def retry_program() -> str:
    """A program whose client is made with the retrying fetch of docs/clients.md, as written;
    it posts one legal-cards request and prints the status it ends with."""
    [block] = [b for b in re.findall(r"^```ts\n(.*?)^```$", CLIENTS, flags=re.DOTALL | re.MULTILINE) if "retrying" in b]
    made = block.replace('"http://localhost:8000"', "process.argv[2]")
    return f"""import createClient from "openapi-fetch";
import type {{ components, paths }} from "./schema.js";

{made}
const body: components["schemas"]["LegalCardsRequest"] = {{ players: 4, hand: ["KS"], trick: [] }};
const {{ response }} = await client.POST("/v1/tricks/legal-cards", {{ body }});
console.log(JSON.stringify(response.status));
"""


def batch_program() -> str:
    """A program that sends each batch of tests/clientbatch.py in the JSON form, then each of its
    records to evaluateDeal, and prints what it reads from the typed answers."""
    return f"""import createClient from "openapi-fetch";
import type {{ components, paths }} from "./schema.js";
import {{ isDeepStrictEqual }} from "node:util";

type Schemas = components["schemas"];
const batches: Schemas["EvaluateRequest"][][] = {json.dumps(list(BATCHES.values()))};
const client = createClient<paths, {readme_media_types()}>({{ baseUrl: process.argv[2] }});

function resultFacts(result: Schemas["EvaluateResponse"]) {{
  return {{
    id: result.id, valid: result.valid, status: result.status, tricks: result.tricks.length,
    scores: result.score?.scores ?? null, claims_agree: result.claims?.agree ?? null,
  }};
}}
function problemFacts(problem: Schemas["Problem"]) {{
  return {{ status: problem.status, type: problem.type, errors: problem.errors.map((e) => [e.pointer, e.code]) }};
}}

async function read(records: Schemas["EvaluateRequest"][]) {{
  const {{ data, error }} = await client.POST("/v1/deals/evaluate-batch", {{ body: {{ deals: records }} }});
  if (data === undefined) throw new Error(JSON.stringify(error));
  const items: unknown[] = [];
  for (const item of data.results) {{
    const single = await client.POST("/v1/deals/evaluate", {{ body: records[item.index] }});
    const common = {{ index: item.index, id: item.id, single_status: single.response.status }};
    if (item.result !== undefined) {{
      items.push({{
        ...common, result: resultFacts(item.result), problem: item.problem ?? null,
        single: single.data === undefined ? null : resultFacts(single.data),
        same_as_single: isDeepStrictEqual(item.result, single.data),
      }});
    }} else if (item.problem !== undefined) {{
      items.push({{
        ...common, problem: problemFacts(item.problem),
        single: single.error === undefined ? null : problemFacts(single.error),
      }});
    }}
  }}
  const summary: Schemas["BatchSummary"] = data.summary;
  return {{ items, summary }};
}}
const answers: unknown[] = [];
for (const records of batches) answers.push(await read(records));
console.log(JSON.stringify(answers));
"""


def sheet_program() -> str:
    """A program that posts the rulebook's sheet as a typed GameScoreRequest literal and prints
    the bilans and rows it reads through the typed answer."""
    sheet = json.dumps(SCORE_GAME.examples["rulebookSheet"].request)
    return f"""import createClient from "openapi-fetch";
import type {{ components, paths }} from "./schema.js";

type Schemas = components["schemas"];
const sheet: Schemas["GameScoreRequest"] = {sheet};
// Made as docs/clients.md makes it: the answer's JSON type, not the union with its CSV (text/csv).
const client = createClient<paths, {readme_media_types()}>({{ baseUrl: process.argv[2] }});
const {{ data, error }} = await client.POST("/v1/games/score", {{ body: sheet }});
if (data === undefined) throw new Error(JSON.stringify(error));
const bilans: Schemas["Bilan"][] = data.bilans;
const rows: Schemas["GameRow"][] = data.deals;
console.log(JSON.stringify({{
  bilans: bilans.map((b) => [b.name, b.plus, b.minus, b.net, b.rank]),
  takers: rows.map((r) => r.taker), in_turn: rows.map((r) => r.dealer_in_turn),
  first_dealer: data.draw?.first_dealer ?? null, zero_sum: data.zero_sum, agree: data.claims?.agree ?? null,
}}));
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
    (work / "batch.ts").write_text(batch_program(), encoding="utf-8")
    (work / "sheet.ts").write_text(sheet_program(), encoding="utf-8")
    (work / "retry.ts").write_text(retry_program(), encoding="utf-8")
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


def test_the_batch_items_read_through_the_typescript_types_match_evaluate_deal(workdir: Path, server: Gunicorn) -> None:
    run(["npx", "--no-install", "tsc", "--strict", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "batch.ts"], workdir)  # fmt: skip
    output = run(["node", "batch.js", server.base], workdir, timeout=60)
    answers = json.loads(output.strip().splitlines()[-1])
    assert len(answers) == len(BATCHES)
    for (name, records), answer in zip(BATCHES.items(), answers, strict=True):
        items = answer["items"]
        assert [(item["index"], item["id"]) for item in items] == [(i, r["id"]) for i, r in enumerate(records)], name
        for record, item in zip(records, items, strict=True):
            if record is NOT_A_DEAL:
                assert "result" not in item and item["single_status"] == 422
                assert [tuple(error) for error in item["problem"]["errors"]] == NOT_A_DEAL_ERRORS
                assert item["problem"]["status"] == 422 and item["single"] == item["problem"]
                continue
            assert "result" in item and item["problem"] is None, (name, item)
            result = item["result"]
            assert item["single_status"] == 200
            assert (result["id"], result["valid"], result["status"]) == (record["id"], True, "complete")
            assert result["tricks"] == tricks(record)
            assert len(result["scores"]) == record["players"] and sum(result["scores"]) == 0
            assert result["claims_agree"] is (True if "claims" in record else None)
            assert item["single"] == result and item["same_as_single"]
        bad = records.count(NOT_A_DEAL)
        assert answer["summary"] == {
            "deals": len(records), "valid": len(records) - bad, "in_progress": 0, "faulty": 0, "malformed": bad,
            "claims_checked": 1, "claims_disagree": 0, "complete": True, "unevaluated_from": None,
        }, name  # fmt: skip


def test_the_rulebook_sheet_reads_typed_through_the_typescript_client(workdir: Path, server: Gunicorn) -> None:
    run(["npx", "--no-install", "tsc", "--strict", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "sheet.ts"], workdir)  # fmt: skip
    output = run(["node", "sheet.js", server.base], workdir, timeout=60)
    assert json.loads(output.strip().splitlines()[-1]) == {
        "bilans": [["N", 318, 764, -446, 3], ["E", 360, 750, -390, 2], ["S", 1746, 400, 1346, 1],
                   ["W", 270, 780, -510, 4]],
        "takers": [1, 3, 2, 0, 2], "in_turn": [True] * 5, "first_dealer": 1, "zero_sum": True, "agree": True,
    }  # fmt: skip


def test_the_client_made_as_docs_clients_md_says_waits_out_refusals_for_load(workdir: Path) -> None:
    # Two refusals for load (503, Retry-After: 0), then the stub's own answer (a 422 problem for
    # every operation but the batch): the client ends with that answer, having asked three times.
    run(["npx", "--no-install", "tsc", "--strict", "--module", "nodenext", "--target", "es2022",
         "--skipLibCheck", "retry.ts"], workdir)  # fmt: skip
    with stub(["overloaded 0"] * 2) as server:
        output = run(["node", "retry.js", server.base], workdir, timeout=60)
        assert len(server.languages) == 3
    assert json.loads(output.strip().splitlines()[-1]) == 422
