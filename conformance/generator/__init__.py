"""The conformance kit's generator: writes conformance/v1/cases/<operation>/<topic>.json.

Run from the repository root: ``python -m conformance.generator [--check]`` (``make kit``).

Three sources of cases (the format: conformance/v1/case-file.schema.json):

- curated: positions and deals built from docs/rules.md, each stating by hand the verdict
  the rulebook gives (``want``): legal, winner, score, and the deals by rulebook chapter;
- golden: tests/golden/*.jsonl, whose expected figures come from independent engines (golden);
- generated: random legal deals of service/randomdeals.py, their faulty and unfinished
  variants, and the positions, tricks and summaries taken from them (generated).

Every request is posed to the service (service.py, the one seam) and ``expect`` is read
from its answer (verdict fields only). Before anything is written the answer is held
against the hand-stated verdicts, the golden figures, and the reference model (oracle.py:
legal cards, trick winner, the Excuse settlement, the count and the score, the first fault
of the discard and the play), written from the rulebook independently of service/rules.
Any disagreement aborts the run: the kit states what the rulebook says, never what the
service happens to do. A case the service gets wrong is listed in assembly.HELD_BACK: left
out, its number kept, and named on every run until the service is put right.

Ids never move: a curated case carries its number in its module; a golden case is numbered
from its golden id or line; a generated case from its seed. Adding cases adds numbers.

The modules, from the bottom up: cards.py (the cards as written), errors.py (KitError),
service.py, oracle.py; verdicts.py (per operation: the verdicts expected, the reference
model's checks, the tags an answer decides); building.py (deals and positions to order);
assembly.py (the kit: topics, cases, files); then the topics, a module each, and
__main__.py, which runs them in order. No import runs upwards: the modules make no cycle.
"""
