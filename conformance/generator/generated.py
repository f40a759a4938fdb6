"""Generated cases: random legal deals, their faulty and unfinished variants, and the
positions, tricks and summaries taken from them.
"""

from __future__ import annotations

import random

from service.randomdeals import random_deal

from .assembly import Kit
from .building import cut, positions, swap_plays
from .cards import CONTRACTS, KINGS, OUDLERS, PLAYER_WORD, SUITS, TABLE, TIERS, Deal, Json, ordered, points_of, suit
from .errors import KitError
from .oracle import first_leader, ref_chelem_points, ref_first_fault, ref_tricks, start_hands
from .verdicts import LEGAL_RULES, LEGAL_TAG


def deal_tags(request: Deal, answer: Json) -> set[str]:
    """Topic tags from what a valid deal's answer shows."""
    tags = {"generated"}
    if request["players"] == 5:
        tags.add("called-card")
    if answer["status"] == "complete":
        tags |= {"trick-winner", "scoring"}
        if answer["points"]["attack"] % 1:
            tags.add("half-point")
    if answer["excuse"] and answer["excuse"]["outcome"] != "not_played":
        tags.add("excuse")
    if answer["chelem"]["announced"] or answer["chelem"]["made_by"]:
        tags.add("chelem")
    if answer["petit_au_bout"]:
        tags.add("petit-au-bout")
    if answer["poignees"]:
        tags.add("poignee")
    return tags


def deal_rules(request: Deal, answer: Json) -> list[str]:
    rules = ["2", "6", "7"]
    if answer["status"] == "complete":
        rules += ["8", "9.1", "9.2", "9.3"]
    rules += ["4.1"] if request["contract"] in ("prise", "garde") else ["4.3"]
    rules += ["5.2"] if request["players"] == 5 else []
    rules += ["9.4"] if answer["petit_au_bout"] else []
    rules += ["9.5"] if answer["poignees"] else []
    rules += ["9.6"] if answer["chelem"]["announced"] or answer["chelem"]["made_by"] else []
    rules += ["12"] if request.get("hands") is None or answer["status"] == "in_progress" else []
    return rules


def describe(d: Deal, seed: int) -> str:
    return (f"a random legal {PLAYER_WORD[d['players']]}-player {d['contract']} taken by seat {d['taker']}, "
            f"seat {d['dealer']} dealing (dealgen seed {seed})")  # fmt: skip


def generated_cases(kit: Kit) -> None:
    for players in (3, 4, 5):
        generated_deals(kit, players, 30)
        faulty_deals(kit, players, 15)
        unfinished_deals(kit, players, 15)
        positions_of_deals(kit, players, 40)
        tricks_of_deals(kit, players, 25)
    summaries(kit, 120)


def generated_deals(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(
        "evaluate",
        f"generated-{players}p",
        f"Random legal {PLAYER_WORD[players]}-player deals (service/randomdeals.py), complete: every verdict of each.",
    )
    for seed in range(count):
        d = random_deal(seed, players)
        inferred = seed % 5 == 4  # one deal in five given without hands: §12
        request = {k: v for k, v in d.items() if not (inferred and k in ("hands", "dog"))}
        answer = kit.answer("evaluate", request)
        how = " given without hands or dog" if inferred else ""
        kit.add(
            t,
            seed,
            f"Complete deal, {describe(d, seed)}{how}: status, winners, points, oudlers, Excuse, marks.",
            deal_rules(request, answer),
            deal_tags(request, answer),
            request,
            want={"/valid": True},
        )


def faulty_deals(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(
        "evaluate",
        f"generated-faulty-{players}p",
        f"Random legal {PLAYER_WORD[players]}-player deals "
        "made faulty: two cards played swapped, or the discard altered; the first fault.",
    )
    for seed in range(count):
        d = random_deal(seed + 100, players)
        rng = random.Random(f"faulty-{players}-{seed}")
        n = len(d["plays"])
        for _ in range(200):
            i, j = sorted(rng.sample(range(n), 2))
            swapped = swap_plays(d, i, j)
            if ref_first_fault(swapped) is not None:
                break
        else:
            raise KitError(f"faulty {players}p seed {seed}: no faulty swap")
        answer = kit.answer("evaluate", swapped)
        code = answer["violations"][0]["code"] if answer["violations"] else "none"
        kit.add(
            t,
            seed * 10 + 1,
            f"Plays {i} and {j} (from 0) of {describe(d, seed + 100)} swapped: first fault {code}.",
            ["6", "12"],
            {"generated", "faulty"},
            swapped,
            fault_ref=True,
        )
        altered, how = alter_discard(d, rng)
        answer = kit.answer("evaluate", altered)
        code = answer["violations"][0]["code"] if answer["violations"] else "none"
        kit.add(
            t,
            seed * 10 + 2,
            f"The discard of {describe(d, seed + 100)} altered ({how}): first fault {code}.",
            ["4", "12"],
            {"generated", "faulty", "discard"},
            altered,
            fault_ref=True,
        )


def alter_discard(d: Deal, rng: random.Random) -> tuple[Deal, str]:
    """``d`` with its discard made faulty, the plays kept consistent where that is possible."""
    taker = d["taker"]
    if d["contract"] in ("garde_sans", "garde_contre"):
        return {**d, "discard": d["dog"][:2]}, "a discard in a garde without the dog"
    kinds = ["king", "trump", "foreign", "short", "exchange"]
    rng.shuffle(kinds)
    played = [c for c in d["plays"] if c in start_hands(d, taker, d["contract"])[taker]]
    for kind in kinds:
        discard = list(d["discard"])
        plays = list(d["plays"])
        if kind in ("king", "trump", "exchange"):
            pool = {
                "king": [c for c in played if c in KINGS],
                "trump": [c for c in played if suit(c) == "T" and c not in OUDLERS],
                "exchange": [c for c in played if suit(c) in SUITS and c not in KINGS],
            }[kind]
            if not pool:
                continue
            card = rng.choice(pool)
            k = rng.randrange(len(discard))
            plays[plays.index(card)], discard[k] = discard[k], card
            how = {"king": "a king", "trump": "a trump", "exchange": "a plain card"}[kind]
            how = f"{how} played by the taker discarded instead of {plays[d['plays'].index(card)]}"
        elif kind == "foreign":
            others = [c for s, h in enumerate(d["hands"]) if s != taker for c in h if suit(c) in SUITS]
            card = rng.choice([c for c in others if c not in KINGS])
            k = rng.randrange(len(discard))
            how = f"{card}, another seat's card, discarded instead of {discard[k]}"
            discard[k] = card
        else:
            how = f"{discard.pop()} left out"
        altered = {**d, "discard": ordered(discard), "plays": plays}
        if ref_first_fault(altered) is not None:
            return altered, how
    raise KitError("no faulty discard")


def unfinished_deals(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(
        "evaluate",
        f"generated-in-progress-{players}p",
        f"Random legal {PLAYER_WORD[players]}-player "
        "deals cut short: who plays next, and his legal cards when the hands are known.",
    )
    for seed in range(count):
        d = random_deal(seed + 200, players)
        rng = random.Random(f"in-progress-{players}-{seed}")
        length = rng.randrange(len(d["plays"]))
        request = cut(d, length)
        if seed % 3 == 2:  # without hands the legal cards are unknown (§12)
            request = {k: v for k, v in request.items() if k not in ("hands", "dog")}
        answer = kit.answer("evaluate", request)
        how = " without hands" if seed % 3 == 2 else ""
        kit.add(
            t,
            seed,
            f"The first {length} cards of {describe(d, seed + 200)}{how}: the next seat and its cards.",
            deal_rules(request, answer),
            deal_tags(request, answer),
            request,
            want={"/status": "in_progress"},
        )


RARER = ("called_suit_ban", "undertrump", "overtrump", "discard", "trump", "follow", "lead")


def positions_of_deals(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(
        "legal-cards",
        f"generated-{players}p",
        f"Positions of random legal {PLAYER_WORD[players]}-player "
        "deals: the hand and the trick so far, the legal cards and the rule deciding them.",
    )
    for seed in range(count):
        d = random_deal(seed + 300, players)
        rng = random.Random(f"positions-{players}-{seed}")
        ps = positions(d)
        chosen = rng.choice(ps)
        # The second position shows the rarest rule the deal offers, to cover all of §6.
        rarest = min((p for p in ps if p is not chosen), key=lambda p: (RARER.index(p.reason), p.index))
        for k, p in enumerate([chosen, rarest]):
            request: dict[str, Json] = {"players": players, "hand": p.hand, "trick": p.before}
            if players == 5:
                request |= {"first_trick": p.trick == 0, "called_card": d["called_card"]}
            where = "leads" if not p.before else f"plays after {' '.join(p.before)}"
            tags = {"generated", LEGAL_TAG.get(p.reason, "generated")} | ({"excuse"} if "EX" in p.hand else set())
            tags |= {"called-card"} if p.reason == "called_suit_ban" else set()
            kit.add(
                t,
                seed * 10 + k + 1,
                f"Trick {p.trick} of dealgen seed {seed + 300}: seat {p.seat} {where}.",
                LEGAL_RULES[p.reason] + ["6.1"] * ("EX" in p.hand),
                tags,
                request,
            )


def tricks_of_deals(kit: Kit, players: int, count: int) -> None:
    t = kit.topic(
        "winner",
        f"generated-{players}p",
        f"Tricks of random legal {PLAYER_WORD[players]}-player deals, complete or still being played: who wins them.",
    )
    for seed in range(count):
        d = random_deal(seed + 400, players)
        rng = random.Random(f"tricks-{players}-{seed}")
        tricks = ref_tricks(d, first_leader(d, d["taker"]))[:-1]  # the last trick's Excuse exception is the deal's
        for k, length in enumerate((players, rng.randrange(1, players))):
            trick = rng.choice(tricks)
            request: dict[str, Json] = {"players": players, "leader": trick.leader, "cards": trick.cards[:length]}
            state = "complete" if length == players else f"{length} card(s) played"
            tags = {"generated", "trick-winner"} | ({"excuse"} if "EX" in request["cards"] else set())
            tags |= {"trump"} if any(suit(c) == "T" for c in request["cards"]) else set()
            kit.add(
                t,
                seed * 10 + k + 1,
                f"A trick of dealgen seed {seed + 400}, {state}, led by seat {trick.leader}.",
                ["7"],
                tags,
                request,
            )


def summaries(kit: Kit, count: int) -> None:
    t = kit.topic("score", "generated", "Random deal summaries at 3, 4 and 5 players: every term of D and the marks.")
    for seed in range(count):
        rng = random.Random(f"summary-{seed}")
        players = rng.choice((3, 4, 5))
        oudlers = rng.randrange(4)
        low = max(0, 9 * oudlers - 1)
        high = 182 - max(0, 9 * (3 - oudlers) - 1)
        request: dict[str, Json] = {
            "players": players,
            "contract": rng.choice(CONTRACTS),
            "taker": rng.randrange(players),
            "points": points_of(rng.randint(low, high) if players != 4 else 2 * rng.randint(low // 2 + 1, high // 2)),
            "oudlers": oudlers,
        }
        if players == 5:
            request["partner"] = rng.choice([None, *range(5)])
        request["petit_au_bout"] = rng.choice([None, None, "attack", "defence"])
        shown = rng.sample(["attack", "attack", "defence", "defence"], rng.randrange(3))
        poignees = [{"side": s, "size": rng.choice(TIERS)} for s in shown]
        while sum(TABLE[players].poignees[TIERS.index(p["size"])] for p in poignees) > 22:
            poignees.pop()  # the deck has 21 trumps and the Excuse to show
        request["poignees"] = poignees
        made_by = rng.choice([None] * 8 + ["attack", "defence"])
        request["chelem"] = {"announced": rng.random() < 0.1, "made_by": made_by}
        if made_by is not None:
            # A chelem leaves the side that took no trick little: the points and oudlers must fit (§12).
            fit = [k for k in range(4) if ref_chelem_points(players, request["contract"], made_by, k) is not None]
            if oudlers not in fit:
                oudlers = request["oudlers"] = rng.choice(fit)
            span = ref_chelem_points(players, request["contract"], made_by, oudlers)
            assert span is not None
            request["points"] = points_of(rng.randint(int(2 * span[0]), int(2 * span[1])))
        tags = {"generated", "scoring"}
        tags |= {"half-point"} if request["points"] % 1 else set()
        tags |= {"petit-au-bout"} if request["petit_au_bout"] else set()
        tags |= {"poignee"} if request["poignees"] else set()
        tags |= {"chelem"} if request["chelem"]["announced"] or made_by else set()
        tags |= {"called-card"} if players == 5 else set()
        rules = ["1.4", "9.2", "9.3"] + ["9.4"] * bool(request["petit_au_bout"])
        rules += ["9.5"] * bool(request["poignees"]) + ["9.6"] * ("chelem" in tags)
        kit.add(
            t,
            seed,
            f"A random {PLAYER_WORD[players]}-player {request['contract']} summary: "
            f"{request['points']} points, {oudlers} oudler(s).",
            rules,
            tags,
            request,
        )
