"""``tarot-rules deal``: random deals, legally played, the same for the same seed, as deal records.

For teams testing their own Tarot engine: each deal is a ``POST /v1/deals/evaluate`` request
(hands, dog, bids, call, discard, poignées, every card played) written as one line of JSON, so
that ``--count`` deals make an NDJSON file ``tarot-rules replay`` reads as it is. With
``--claims`` each record also carries what the service's own evaluation says of it, the
answers an engine under test has to find.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

import orjson

from service.contract.claims import true_claims_of
from service.contract.declaration import Decided
from service.contract.evaluate import ID_MAX_LENGTH
from service.contract.records import record_item
from service.randomdeals import random_record, request_of
from service.rules.table import PLAYER_COUNTS

from .errors import CommandError
from .words import language, say


def _whole(minimum: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(say("deal.not_whole", minimum=minimum, value=text))
        return value

    return parse


def add_parser(commands: Any) -> None:
    """The ``deal`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    parser = commands.add_parser("deal", help=say("deal.help"), description=say("deal.description"))
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, required=True, help=say("deal.help.players"))
    parser.add_argument("--seed", type=_whole(0), required=True, metavar="SEED", help=say("deal.help.seed"))
    parser.add_argument("--count", type=_whole(1), default=1, metavar="K", help=say("deal.help.count"))
    parser.add_argument("--id-prefix", metavar="PREFIX", help=say("deal.help.id_prefix"))
    parser.add_argument("--claims", action="store_true", help=say("deal.help.claims"))
    parser.set_defaults(run=run)


def claims_of(request: dict[str, Any], seed: int) -> dict[str, Any]:
    """What the service's evaluation says of a request, as the claims an engine would make."""
    decided: list[Decided] = []
    item = record_item(0, request, decided.append, language=language())
    evaluation = decided[0].evaluation if decided else None
    if evaluation is None:
        raise CommandError(say("deal.not_evaluated", seed=str(seed), detail=item["problem"]["detail"]))
    return true_claims_of(evaluation, request["players"])


def deal_lines(players: int, seed: int, count: int, id_prefix: str | None, claims: bool) -> Iterator[bytes]:
    """The NDJSON lines of ``count`` deals from ``seed``, each ended by a newline."""
    for deal_seed in range(seed, seed + count):
        record = random_record(deal_seed, players, auction=True)
        request = request_of(record, None if id_prefix is None else f"{id_prefix}{deal_seed}")
        if claims:
            request["claims"] = claims_of(request, deal_seed)
        yield orjson.dumps(request) + b"\n"


def run(args: argparse.Namespace) -> int:
    if args.id_prefix is not None:
        longest = f"{args.id_prefix}{args.seed + args.count - 1}"  # seeds grow, and so do their ids
        if len(longest) > ID_MAX_LENGTH:
            raise CommandError(say("deal.id_too_long", length=len(longest), limit=ID_MAX_LENGTH))
    # Bytes straight to the binary stream where there is one: UTF-8 whatever the locale says.
    binary = getattr(sys.stdout, "buffer", None)
    # A reader that stops (``| head``) is the command's main's to handle: a broken pipe, no traceback.
    for line in deal_lines(args.players, args.seed, args.count, args.id_prefix, args.claims):
        if binary is not None:
            binary.write(line)
        else:
            sys.stdout.write(line.decode())
    return 0
