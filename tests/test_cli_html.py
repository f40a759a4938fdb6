"""``tarot-rules replay --html``: a replay's report to look at, one self-contained page."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from service import texts
from service.contract.evaluate import EVALUATE
from service.messages import Term
from service.randomdeals import random_deal

from .browser import dump_dom, needs_browser
from .commandline import summary, tarot_rules, write_ndjson
from .mutations import faulty


def _log(tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """A log of valid deals, two faulty ones and one valid deal with a false claim."""
    lines: list[dict[str, Any]] = []
    for seed in range(12):
        lines.append({**random_deal(seed, 4), "id": f"valid-{seed}"})
    wrong = [m.deal for m, _ in itertools.islice(faulty("swapped_pair", range(40), 4), 2)]
    assert len(wrong) == 2
    lines += [{**d, "id": f"faulty-{i}"} for i, d in enumerate(wrong)]
    lines.append({**random_deal(3, 5), "id": "false-claim", "claims": {"valid": False}})
    return write_ndjson(tmp_path / "log.ndjson", lines), lines


def _root_messages(deal: dict[str, Any], language: str) -> list[str]:
    answer = EVALUATE.respond(deal, language).answer
    return [v["message"] for v in answer["violations"] if v["caused_by"] is None]


def _page(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _unescaped(html: str) -> str:
    return (
        html.replace("&#39;", "'")
        .replace("&quot;", '"')
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_page_names_every_faulty_deal_and_says_its_root_faults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    log, lines = _log(tmp_path)
    page_path = tmp_path / "report.html"
    plain, _, _ = tarot_rules(capsys, "replay", log)
    junit = tmp_path / "report.xml"
    code, _, _ = tarot_rules(capsys, "--lang", language, "replay", log, "--html", page_path, "--junit", junit)
    assert code == plain == 1  # the page changes nothing of the exit status
    page = _page(page_path)
    text = _unescaped(page)
    assert f'<html lang="{language}">' in page
    drawn = re.findall(r'<h2 id="deal-\d+">([^<]*?)(?: <small>|</h2>)', page)
    assert drawn == ["faulty-0", "faulty-1", "false-claim"]
    # The page draws the deals the JUnit report fails, the same ones.
    failed = [case.get("name") for case in ET.parse(junit).iter("testcase") if case.find("failure") is not None]
    assert drawn == failed
    for line in lines:
        if line["id"].startswith("faulty"):
            messages = _root_messages(line, language)
            assert messages
            for message in messages:
                assert message in text
    assert ("Fautes racines" if language == "fr" else "Root faults") in text
    assert "/claims/valid" in text
    counted = {
        "en": "12 deals valid with their claims agreeing: counted, not drawn.",
        "fr": "12 donnes valides dont les affirmations concordent\u00a0: comptées, non dessinées.",
    }
    assert counted[language] in text  # the twelve valid deals, counted and not drawn


def test_the_page_loads_nothing_from_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, _ = _log(tmp_path)
    tarot_rules(capsys, "replay", log, "--html", tmp_path / "report.html")
    page = _page(tmp_path / "report.html")
    assert not re.search(r"<script|<link|<img|<iframe|@import|url\(|src=|href=", page, re.IGNORECASE)


def test_a_limit_draws_the_first_failures_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, _ = _log(tmp_path)
    tarot_rules(capsys, "replay", log, "--html", tmp_path / "report.html", "--html-limit", "1")
    page = _page(tmp_path / "report.html")
    assert re.findall(r'<h2 id="deal-\d+">([^<]*?)(?: <small>|</h2>)', page) == ["faulty-0"]
    assert "2 more failing deals, not drawn." in page


def test_the_page_says_what_the_deals_leave_out_by_code_and_under_each_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The log's deals give no bids (auction), two of them no hands either (dealt_hands).
    log, lines = _log(tmp_path)
    for line in lines[:2]:
        del line["hands"], line["dog"]
    write_ndjson(log, lines)
    tarot_rules(capsys, "replay", log, "--html", tmp_path / "report.html", "--html-limit", "3")
    page = _unescaped(_page(tmp_path / "report.html"))
    table = page[page.index('<table class="unchecked">') :].split("</table>")[0]
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td>\n<td><p>([^<]*)</p></td><td>([^<]*)</td></tr>", table)
    assert [(code, n, names) for code, n, _, names in rows] == [
        ("auction", "15", "valid-0, valid-1, valid-2 and 12 more"),
        ("dealt_hands", "2", "valid-0, valid-1"),
    ]
    assert rows[0][2].startswith("The bids are not given") and rows[1][2].startswith("The hands as dealt")
    # Each failure drawn says its own, in the service's words.
    for name in ("faulty-0", "faulty-1", "false-claim"):
        drawn = page[page.index(f'">{name} <small>') :].split("<h2")[0]
        assert '<ul class="unchecked"><li>not checked (auction): The bids are not given' in drawn


def test_an_unwritable_path_is_refused_before_the_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, _ = _log(tmp_path)
    code, _, err = tarot_rules(capsys, "replay", log, "--html", tmp_path / "no" / "such" / "report.html")
    assert code == 2 and "HTML" in err


@needs_browser
def test_the_page_in_a_browser_shows_the_marked_card(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, _ = _log(tmp_path)
    tarot_rules(capsys, "replay", log, "--html", tmp_path / "report.html")
    # The page has no script of its own; the test adds one that writes what the browser laid out.
    probe = """<script>
const fault = document.querySelector("td.fault");
const box = fault.getBoundingClientRect();
const style = getComputedStyle(fault);
document.body.setAttribute("data-probe", [box.width > 0 && box.height > 0, style.visibility,
  style.backgroundColor, fault.textContent.trim()].join("|"));
</script></body>"""
    probed = tmp_path / "probed.html"
    probed.write_text(_page(tmp_path / "report.html").replace("</body>", probe), encoding="utf-8")
    run = dump_dom(probed.as_uri(), tmp_path / "profile")
    found = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert found is not None, run.stdout[:500]
    visible, visibility, background, card = found.group(1).split("|")
    assert visible == "true" and visibility == "visible" and background == "rgb(255, 217, 217)" and card
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == []


def test_the_page_s_counts_by_file_add_up_to_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The page counts by file, the terminal in all: two files, one with a line that is no deal.
    first, _ = _log(tmp_path)
    second = write_ndjson(tmp_path / "more.ndjson", [{**random_deal(seed, 3), "id": f"m-{seed}"} for seed in range(4)])
    second.write_text(second.read_text(encoding="utf-8") + '{"players": 9}\n', encoding="utf-8")
    _, out, _ = tarot_rules(capsys, "replay", first, second, "--html", tmp_path / "report.html")
    page = _page(tmp_path / "report.html")
    start = page.index('<table class="summary">')
    table = page[start : page.index("</table>", start)]
    rows = [[int(n) for n in re.findall(r"<td>(\d+)</td>", row)] for row in table.split("<tr>")[2:]]
    assert len(rows) == 2  # both files have failures: both are listed
    totals = [sum(column) for column in zip(*rows, strict=True)]
    said = summary(out)
    labels = ("records", "valid", "of which in progress", "faulty", "malformed", "claims disagreeing")
    assert totals == [said[label] for label in labels]
    assert said["malformed"] == 1 and said["claims disagreeing"] == 1


def test_the_page_leads_with_the_verdict_and_lists_only_the_files_that_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = _log(tmp_path)
    clean = write_ndjson(tmp_path / "clean.ndjson", [{**random_deal(seed, 3), "id": f"c-{seed}"} for seed in range(3)])
    tarot_rules(capsys, "replay", first, clean, "--html", tmp_path / "report.html")
    page = _page(tmp_path / "report.html")
    assert '<p class="verdict bad">3 deals of 18 failed.</p>' in page
    # The failures come before the counts, and the file where nothing failed is not listed.
    assert page.index('<h2 id="deal-1">') < page.index('<table class="summary">')
    assert str(first) in page[page.index('<table class="summary">') :] and str(clean) not in page


def _probe(page: Path, script: str, tmp_path: Path) -> list[str]:
    """What a script added to the page finds once Chromium has laid it out (``|``-separated)."""
    probed = tmp_path / f"probed-{page.stem}.html"
    body = f"<script>document.body.setAttribute('data-probe', (() => {{ {script} }})());</script></body>"
    probed.write_text(_page(page).replace("</body>", body), encoding="utf-8")
    run = dump_dom(probed.as_uri(), tmp_path / f"profile-{page.stem}")
    found = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert found is not None, run.stdout[:500]
    assert [line for line in run.stderr.splitlines() if "Uncaught" in line] == []
    return _unescaped(found.group(1)).split("|")


@needs_browser
def test_in_a_browser_the_leader_and_the_trumps_are_told_apart_and_words_say_contracts_and_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, _ = _log(tmp_path)
    tarot_rules(capsys, "--lang", "fr", "replay", log, "--html", tmp_path / "report.html")
    lead_trump, lead_other, trump_colour, contract, heading, score = _probe(
        tmp_path / "report.html",
        """const lead = document.querySelector("td.lead");
        const trump = document.querySelector("span.card.trump");
        const plain = document.querySelector("td:not(.lead) span.card.black, td:not(.lead) span.card.red");
        const meta = [...document.querySelectorAll("table.meta tr")].map(r => r.textContent);
        return [getComputedStyle(lead).boxShadow, getComputedStyle(plain.parentElement).boxShadow,
                getComputedStyle(trump).color, meta.find(t => t.startsWith("Contrat")),
                [...document.querySelectorAll("table.tricks th")].map(th => th.textContent).join(","),
                meta.find(t => t.startsWith("Score final")) || ""].join("|");""",
        tmp_path,
    )
    assert lead_trump != lead_other and lead_other == "none"  # the leader's bar
    assert trump_colour == "rgb(106, 27, 154)"  # purple: no longer the leader's blue
    assert contract.startswith("Contrat") and "_" not in contract  # « garde contre », not garde_contre
    assert "(preneur)" in heading
    assert "joueur 0" in score.lower() and "joueur 3" in score.lower()  # every seat's mark, by its seat


@needs_browser
def test_in_a_browser_the_conformance_page_marks_the_expected_first_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.cli.faults import faults_of
    from service.cli.html import CONFORMANCE, Expected, HtmlReport
    from service.cli.outcome import drawing
    from service.cli.words import use

    use("en")
    deal = next(m.deal for m, _ in faulty("swapped_pair", range(40), 4))
    answer = EVALUATE.respond(deal).answer
    first = answer["violations"][0]
    page = tmp_path / "conformance.html"
    report = HtmlReport(str(page), ["cases/evaluate/x.json"], "en", kind=CONFORMANCE)
    report.count(0, "cases", "failed")
    report.add_failure(
        "evaluate/x/001",
        "A case.",
        faults_of({"violations": []}),  # an implementation that found nothing
        where="cases/evaluate/x.json",
        drawing=drawing(deal, answer),
        expected=Expected(first["code"], first["trick"], first["seat"]),
    )
    report.write()
    verdict, outline, said = _probe(
        page,
        """const cell = document.querySelector("td.expected");
        const box = cell.getBoundingClientRect();
        return [document.querySelector("p.verdict").textContent,
                box.width > 0 ? getComputedStyle(cell).outlineStyle : "hidden",
                document.querySelector("p.expected-fault").textContent].join("|");""",
        tmp_path,
    )
    assert verdict == "1 case of 1 failed."
    assert outline == "dashed"
    assert said.startswith("Expected first fault: " + texts.catalog("en").value(Term("violation", first["code"])))


@pytest.mark.parametrize(
    ("language", "hint", "king", "not_king"), [("en", "Did you mean", "K", "R"), ("fr", "Vouliez-vous dire", "R", "K")]
)
def test_the_page_speaks_the_language_of_the_run_to_its_cards_and_hints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str, hint: str, king: str, not_king: str
) -> None:
    # A malformed record's row carries the service's hint; a faulty deal's cards are marked as the
    # players of the language mark them (K, « R » for the king).
    log, lines = _log(tmp_path)
    typo = dict(lines[0], id="typo", plays=[lines[0]["plays"][0].lower(), *lines[0]["plays"][1:]])
    write_ndjson(log, [*lines, typo])
    tarot_rules(capsys, "--lang", language, "replay", log, "--html", tmp_path / "report.html")
    page = _unescaped(_page(tmp_path / "report.html"))
    assert f"{hint} {lines[0]['plays'][0]}" in page
    faces = re.findall(r'class="card (?:red|black)">(\w+)[♠♥♦♣]<', page)
    assert king in faces and not_king not in faces, sorted(set(faces))
