"""The reference model: the rulebook read independently of service/rules.

The deal of the cards and the shuffle from a seed, legal cards, trick winner, the Excuse
settlement, the count and the score, the first fault of the discard and the play, on the
wire's card codes. The kit holds every answer of the
service to it before a case is written; tests/test_conformance_oracle.py holds it to the core.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from .cards import (
    CONTRACTS,
    DECK,
    KINGS,
    MULTIPLIER,
    OUDLERS,
    POIGNEE_BONUS,
    SUITS,
    TABLE,
    THRESHOLD,
    TIERS,
    Deal,
    Json,
    half_points,
    ordered,
    other,
    points_of,
    rank,
    suit,
)


def ref_shuffle(seed: str) -> list[str]:
    """§2.2: Fisher–Yates over the canonical deck, driven by the 32-bit words of SHA-256(seed ‖ i)."""
    data = seed.encode("utf-8")
    stream = b"".join(hashlib.sha256(data + i.to_bytes(8, "big")).digest() for i in range(64))
    words = iter(int.from_bytes(stream[k : k + 4], "big") for k in range(0, len(stream), 4))
    deck = list(DECK)
    for i in range(77, 0, -1):
        n = i + 1
        w = next(words)
        while w >= 2**32 - 2**32 % n:  # rejected: an unbiased draw takes the next word
            w = next(words)
        deck[i], deck[w % n] = deck[w % n], deck[i]
    return deck


def ref_deal_answer(req: Json) -> dict[str, Json]:
    """§2.1: packets from the dealer's right, round after round; the dog at the positions given,
    or at ⌊k·P/(m+1)⌋ packets plus the k − 1 dog cards before; a petit sec (§3.1) to deal again."""
    n, dealer = req["players"], req["dealer"]
    table = TABLE[n]
    packet = req.get("packet") or (4 if n == 3 else 3)
    deck = req["deck"] if req.get("deck") is not None else ref_shuffle(req["seed"])
    packets, m = n * table.hand // packet, table.dog
    positions = req.get("dog_positions") or [packet * (k * packets // (m + 1)) + k - 1 for k in range(1, m + 1)]
    hands: list[list[str]] = [[] for _ in range(n)]
    given = 0
    for position, card in enumerate(deck):
        if position not in positions:
            hands[(dealer + 1 + given // packet) % n].append(card)
            given += 1
    ignores_excuse = (req.get("rules") or {}).get("petit_sec_ignores_excuse", False)
    sec = [
        seat
        for seat, hand in enumerate(hands)
        if [c for c in hand if suit(c) == "T"] == ["1T"] and (ignores_excuse or "EX" not in hand)
    ]
    return {
        "/packet": packet,
        "/deck": deck,
        **{f"/hands/{seat}": ordered(hand) for seat, hand in enumerate(hands)},
        "/dog": ordered([deck[p] for p in positions]),
        "/set_aside": [{"position": p, "card": deck[p]} for p in sorted(positions)],
        "/redeal": bool(sec),
        "/redeal_reason": "petit_sec" if sec else None,
        "/redeal_seat": sec[0] if sec else None,
    }


def ref_legal(hand: list[str], trick: list[str], ban: str | None = None) -> tuple[list[str], str]:
    """The legal cards and the deciding rule (§6, §5.3 with the §12 reading of the Excuse)."""
    led = next((suit(c) for c in trick if c != "EX"), None)
    excuse = [c for c in hand if c == "EX"]
    if led is None:
        # A hand of nothing but the called suit is free of the ban; the Excuse is something else.
        if ban is not None and any(suit(c) != suit(ban) for c in hand):
            allowed = [c for c in hand if suit(c) != suit(ban) or c == ban]
            if len(allowed) < len(hand):
                return ordered(allowed), "called_suit_ban"
        return ordered(hand), "lead"
    if led != "T":
        follow = [c for c in hand if suit(c) == led]
        if follow:
            return ordered(follow + excuse), "follow"
    trumps = [c for c in hand if suit(c) == "T"]
    if not trumps:
        return ordered(hand), "discard"
    top = max((rank(c) for c in trick if suit(c) == "T"), default=None)
    if top is None:
        return ordered(trumps + excuse), "trump"
    higher = [c for c in trumps if rank(c) > top]
    if higher:
        return ordered(higher + excuse), "overtrump"
    return ordered(trumps + excuse), "undertrump"


def ref_fault(hand: list[str], trick: list[str], card: str, ban: str | None) -> str | None:
    """The violation code of playing ``card`` from ``hand`` to ``trick`` (None: legal)."""
    legal, reason = ref_legal(hand, trick, ban)
    if card in legal:
        return None
    if reason == "called_suit_ban":
        return "called_suit_lead"
    if reason == "follow":
        return "renounce"
    # A trump was due (a discard refuses no card): none played, or one too low.
    if suit(card) == "T":
        return "must_overtrump"
    return "renounce" if next(suit(c) for c in trick if c != "EX") == "T" else "must_trump"


def ref_trick_index(cards: list[str]) -> int | None:
    """Index of the card winning the trick so far (§7, without the last-trick exception)."""
    trumps = [i for i, c in enumerate(cards) if suit(c) == "T"]
    if trumps:
        return max(trumps, key=lambda i: rank(cards[i]))
    led = next((suit(c) for c in cards if c != "EX"), None)
    if led is None:
        return None
    return max((i for i, c in enumerate(cards) if suit(c) == led), key=lambda i: rank(cards[i]))


def ref_winner_answer(req: Json) -> dict[str, Json]:
    cards, n, leader = req["cards"], req["players"], req.get("leader") or 0
    i = ref_trick_index(cards)
    led = next((suit(c) for c in cards if c != "EX"), None)
    return {
        "/winner": None if i is None else (leader + i) % n,
        "/winner_index": i,
        "/winning_card": None if i is None else cards[i],
        "/led_suit": led,
        "/trumped": any(suit(c) == "T" for c in cards),
        "/complete": len(cards) == n,
    }


def ref_chelem_term(announced: bool, made_by: str | None) -> int:
    if made_by == "attack":
        return 400 if announced else 200
    return (-200 if announced else 0) + (-200 if made_by == "defence" else 0)


def ref_score(
    players: int,
    contract: str,
    taker: int,
    partner: int | None,
    points: float,
    oudlers: int,
    petit: str | None,
    poignees: list[str],
    announced: bool,
    made_by: str | None,
    petit_to_taker: bool = False,
) -> dict[str, Json]:
    """§9.2–9.6: D and the marks; ``poignees`` are tiers (their bonus goes to the winner).
    ``petit_to_taker``: the variant of §9.4, the Petit au bout for the attack whoever took it."""
    m = MULTIPLIER["garde" if contract == "pousse" else contract]
    threshold = THRESHOLD[oudlers]
    won = points >= threshold
    margin = math.ceil(abs(points - threshold))
    s = 1 if won else -1
    p = {"attack": 1, "defence": -1, None: 0}[petit]
    if petit is not None and petit_to_taker:
        p = 1
    terms = {
        "/won": won,
        "/threshold": threshold,
        "/margin": margin,
        "/multiplier": m,
        "/contract_points": s * (25 + margin) * m,
        "/petit_au_bout": p * 10 * m,
        "/poignees": s * sum(POIGNEE_BONUS[t] for t in poignees),
        "/chelem": ref_chelem_term(announced, made_by),
    }
    d = sum(terms[k] for k in ("/contract_points", "/petit_au_bout", "/poignees", "/chelem"))
    marks = [-d] * players
    if players == 5 and partner is not None and partner != taker:
        marks[taker], marks[partner] = 2 * d, d
    else:
        marks[taker] = (players - 1) * d
    return {**terms, "/per_defender": d, "/scores": marks}


def ref_chelem_points(
    players: int, contract: str, made_by: str, oudlers: int, rules: Json = None
) -> tuple[float, float] | None:
    """The taker's side's card points after a chelem by ``made_by`` when it holds ``oudlers``
    (§9.6 read with §4, §7, §8.2, §8.3); None when no chelem leaves it that many oudlers.

    The side that took no trick keeps only the cards outside the tricks that count for it (the
    discard, or the unseen dog, or nothing) and its own Excuse if played before the last trick
    (worth 4 there, the half point owed paid on paper); everything else is the chelem side's.
    """
    loser = other(made_by)
    size = TABLE[players].dog
    plain = [c for c in DECK if c not in OUDLERS]
    if loser == "attack" and contract in ("prise", "garde"):
        # The taker's discard: no king and no oudler; under the variant of the FFT Code text, kings and
        # trumps only when the hand holds nothing else.
        piles = [[c for c in plain if c not in KINGS]]
        if (rules or {}).get("discard_kings_when_forced"):
            piles.append([c for c in plain if c in KINGS or suit(c) == "T"])
        pile_oudlers: list[str] = []
    elif (loser == "attack") == (contract == "garde_sans") and contract in ("garde_sans", "garde_contre"):
        piles, pile_oudlers = [plain], list(OUDLERS)  # the unseen dog: any card
    else:
        piles, pile_oudlers, size = [[]], [], 0
    wanted = oudlers if loser == "attack" else 3 - oudlers
    spans: list[tuple[float, float]] = []
    for paper in (0, 1):
        in_pile = wanted - paper
        usable = [c for c in pile_oudlers if not (paper and c == "EX")]
        if in_pile < 0 or in_pile > min(size, len(usable)):
            continue
        rest = size - in_pile
        base = 4 * paper + 4.5 * in_pile
        top = max(sum(sorted((half_points(c) for c in pile), reverse=True)[:rest]) for pile in piles) / 2
        spans.append((base + rest * 0.5, base + top))
    if not spans:
        return None
    low, high = min(a for a, _ in spans), max(b for _, b in spans)
    return (low, high) if loser == "attack" else (91 - high, 91 - low)


def ref_score_answer(req: Json) -> dict[str, Json]:
    chelem = req.get("chelem") or {}
    return ref_score(
        req["players"],
        req["contract"],
        req["taker"],
        req.get("partner"),
        req["points"],
        req["oudlers"],
        req.get("petit_au_bout"),
        [p["size"] for p in req.get("poignees") or []],
        bool(chelem.get("announced")),
        chelem.get("made_by"),
        bool((req.get("rules") or {}).get("petit_au_bout_to_taker")),
    )


def taker_and_contract(d: Deal) -> tuple[int | None, str | None]:
    """§3.3: from the bids when given (pousse is garde under its variant)."""
    if d.get("bids") is None:
        return d.get("taker"), d.get("contract")
    best, taker = -1, None
    for i, bid in enumerate(d["bids"][: d["players"]]):
        if bid == "pass":
            continue
        level = CONTRACTS.index("garde" if bid == "pousse" else bid)
        if level > best:
            best, taker = level, (d["dealer"] + 1 + i) % d["players"]
    return taker, None if taker is None else CONTRACTS[best]


def first_leader(d: Deal, taker: int) -> int:
    if d.get("chelem_announced"):
        return taker
    players: int = d["players"]
    if (d.get("rules") or {}).get("first_lead") == "after_taker":
        return (taker + 1) % players
    dealer: int = d["dealer"]
    return (dealer + 1) % players


def opening_ban(d: Deal) -> str | None:
    if d["players"] != 5 or (d.get("rules") or {}).get("called_suit_lead_ban") is False:
        return None
    return d.get("called_card")


def start_hands(d: Deal, taker: int, contract: str) -> list[list[str]]:
    """Each seat's hand as play starts (§4.1: the taker takes the dog and discards). A taker
    whose discard the record does not tell (§12) holds what of his hand and the dog he plays."""
    hands = [list(h) for h in d["hands"]]
    if contract in ("prise", "garde"):
        discard = set(d.get("discard") or ())
        hands[taker] = ordered(c for c in hands[taker] + list(d.get("dog") or ()) if c not in discard)
        if d.get("discard") is None:
            mine = {
                c for t in ref_tricks(d, first_leader(d, taker)) for c in t.cards if t.seat_of(c, d["players"]) == taker
            }
            hands[taker] = [c for c in hands[taker] if c in mine]
    return hands


def told(d: Deal) -> tuple[Deal, list[str]]:
    """§12, what a record leaves out: the record with each part it proves filled in (the dog of
    whole hands, the discard a complete deal left unplayed, a chelem announcement the taker's
    out-of-turn opening lead shows), and the codes of what it leaves out that stays unknown or
    is read one way."""
    d = dict(d)
    n, table = d["players"], TABLE[d["players"]]
    taker, contract = taker_and_contract(d)
    hands, plays = d.get("hands"), d.get("plays") or []
    complete = len(plays) >= n * table.hand
    unknown = []
    if hands is None:
        unknown.append("dealt_hands")
    if d.get("bids") is None:
        unknown.append("auction")
    if hands is not None and d.get("dog") is None:
        held = [c for h in hands for c in h]
        if all(len(h) == table.hand for h in hands) and len(set(held)) == len(held):
            d["dog"] = [c for c in DECK if c not in held]
        else:
            unknown.append("dog")
    if contract in ("prise", "garde") and d.get("discard") is None:
        left = [c for c in DECK if c not in plays[: n * table.hand]]
        dog = d.get("dog") or [c for c in DECK if hands is not None and not any(c in h for h in hands)]
        if complete and len(left) == table.dog and (hands is None or all(c in hands[taker] or c in dog for c in left)):
            d["discard"] = left
        else:
            unknown.append("discard")
    if d.get("chelem_announced") is None:
        due = first_leader({**d, "chelem_announced": False}, taker)  # type: ignore[arg-type]
        leader = None
        if hands is not None and plays:
            leader = next((s for s, h in enumerate(hands) if plays[0] in h), None)
            if leader is None and plays[0] in (d.get("dog") or []):
                leader = taker
        d["chelem_announced"] = leader == taker != due
        # Said unless the hands show the seat due leading: read as announced, or as not where
        # nothing tells (the taker due anyway, no card played, no hands).
        if d["chelem_announced"] or due == taker or not plays or hands is None:
            unknown.append("chelem_announcement")
    return d, unknown


@dataclass
class RefTrick:
    leader: int
    cards: list[str]
    winner: int | None

    def seat_of(self, card: str, n: int) -> int:
        return (self.leader + self.cards.index(card)) % n


@dataclass
class Ref:
    """The reference model's reading of a deal that breaks no rule."""

    taker: int
    contract: str
    partner: int | None
    attack: set[int]
    tricks: list[RefTrick]
    answer: dict[str, Json] = field(default_factory=dict)
    """The verdicts, as pointers into the evaluate answer."""

    def side(self, seat: int) -> str:
        return "attack" if seat in self.attack else "defence"


def ref_tricks(d: Deal, leader: int) -> list[RefTrick]:
    n, plays = d["players"], d.get("plays") or []
    tricks = []
    for start in range(0, len(plays), n):
        cards = list(plays[start : start + n])
        i = ref_trick_index(cards)
        tricks.append(RefTrick(leader, cards, None if i is None else (leader + i) % n))
        if len(cards) == n:
            leader = tricks[-1].winner  # type: ignore[assignment]
    return tricks


def unseen_dog(d: Deal) -> list[str]:
    """The dog of a garde sans or contre (§4.3) of a complete deal: as given, or what the hands
    do not hold, or, without hands, what nobody played (§12)."""
    if d.get("dog") is not None:
        return list(d["dog"])
    if d.get("hands") is not None:
        return [c for c in DECK if not any(c in h for h in d["hands"])]
    return [c for c in DECK if c not in (d.get("plays") or [])]


def ref_evaluate(d: Deal) -> Ref:
    """The verdicts of a deal record that breaks no rule (complete or in progress)."""
    d, unknown = told(d)
    n, table = d["players"], TABLE[d["players"]]
    rules = d.get("rules") or {}
    taker, contract = taker_and_contract(d)
    assert taker is not None and contract is not None
    tricks = ref_tricks(d, first_leader(d, taker))
    plays = d.get("plays") or []
    complete = len(plays) == n * table.hand
    played_by = {c: t.seat_of(c, n) for t in tricks for c in t.cards}
    partner = None
    if n == 5 and d.get("called_card"):
        called = d["called_card"]
        if d.get("hands") is not None:
            holder = next((s for s, h in enumerate(d["hands"]) if called in h), None)
        else:
            holder = played_by.get(called)
        partner = None if holder == taker else holder
    ref = Ref(taker, contract, partner, {taker} | ({partner} if partner is not None else set()), tricks)
    side = ref.side
    last = table.hand - 1
    if complete and "EX" in tricks[-1].cards:
        # §7: the Excuse takes the last trick when its side took every other one.
        seat = played_by["EX"]
        own = side(seat)
        swept = {side(t.winner) for t in tricks[:-1]} == {own}  # type: ignore[arg-type]
        allowed = not rules.get("excuse_chelem_requires_announce") or (d.get("chelem_announced") and own == "attack")
        if swept and allowed:
            tricks[-1].winner = seat
    a: dict[str, Json] = {"/status": "complete" if complete else "in_progress", "/valid": True}
    for i, code in enumerate(unknown):
        a[f"/unchecked/{i}/code"] = code
    a["/taker"], a["/contract"], a["/partner"] = taker, contract, partner
    for i, t in enumerate(tricks):
        if len(t.cards) == n:
            a[f"/tricks/{i}/winner"] = t.winner
    # §8: the Excuse.
    excuse: dict[str, Json] = {"outcome": "not_played", "kept_by": None, "exchange": None}
    if "EX" in played_by:
        seat = played_by["EX"]
        index = next(i for i, t in enumerate(tricks) if "EX" in t.cards)
        t = tricks[index]
        owner = side(seat)
        if len(t.cards) < n or t.winner is None:
            excuse = {"outcome": "returned", "kept_by": owner, "exchange": None}
        elif index == last:
            if t.winner == seat:
                excuse = {"outcome": "took_last_trick", "kept_by": owner, "exchange": None}
            elif rules.get("excuse_last_trick") == "trick_winner":
                keeper = side(t.winner)
                outcome = "kept_in_last_trick" if keeper == owner else "changed_side"
                excuse = {"outcome": outcome, "kept_by": keeper, "exchange": None}
            else:
                excuse = {"outcome": "changed_side", "kept_by": other(owner), "exchange": None}
        else:
            exchange = None
            if side(t.winner) != owner:
                won = [i for i, u in enumerate(tricks) if len(u.cards) == n and side(u.winner) == owner]  # type: ignore[arg-type]
                paid = None if not won else max(won[0], index)
                exchange = {
                    "from_side": owner,
                    "to_side": other(owner),
                    "paid_at_trick": paid,
                    "on_paper": complete and paid is None,
                }
            excuse = {"outcome": "returned", "kept_by": owner, "exchange": exchange}
    elif complete and "EX" in unseen_dog(d) and contract in ("garde_sans", "garde_contre"):
        # §12: an Excuse left in the unseen dog goes with the side the dog counts for.
        keeper = "attack" if contract == "garde_sans" else "defence"
        excuse = {"outcome": "in_dog", "kept_by": keeper, "exchange": None}
    if tricks:
        for key in ("outcome", "kept_by", "exchange"):
            a[f"/excuse/{key}"] = excuse[key]
    else:
        a["/excuse"] = None
    a["/poignees"] = [
        {"seat": p["seat"], "side": side(p["seat"]), "size": TIERS[table.poignees.index(len(p["cards"]))]}
        for p in d.get("poignees") or []
    ]
    a["/chelem/announced"] = bool(d.get("chelem_announced"))
    if complete:
        # §9.1: the cards of each side, the dog or the discard, then the Excuse and its half point.
        piles: dict[str, list[str]] = {"attack": [], "defence": []}
        for t in tricks:
            piles[side(t.winner)] += t.cards  # type: ignore[arg-type]
        if contract in ("prise", "garde"):
            if d.get("discard") is not None:
                piles["attack"] += d["discard"]
            elif d.get("hands") is None:
                piles["attack"] += [c for c in DECK if c not in plays]
        else:
            piles["attack" if contract == "garde_sans" else "defence"] += unseen_dog(d)
        for pile in piles.values():
            if "EX" in pile:
                pile.remove("EX")
        if excuse["kept_by"] is not None:
            piles[excuse["kept_by"]].append("EX")
        halves = {s: sum(half_points(c) for c in pile) for s, pile in piles.items()}
        if excuse["exchange"] is not None:
            halves[excuse["exchange"]["from_side"]] -= 1
            halves[excuse["exchange"]["to_side"]] += 1
        oudlers = {s: sum(c in OUDLERS for c in pile) for s, pile in piles.items()}
        # §9.4, with the second-to-last trick when the chelem side led the Excuse to the last.
        petit = None
        if "1T" in tricks[-1].cards:
            petit = side(tricks[-1].winner)  # type: ignore[arg-type]
        elif excuse["outcome"] == "took_last_trick" and tricks[-1].cards[0] == "EX" and "1T" in tricks[-2].cards:
            petit = side(tricks[-2].winner)  # type: ignore[arg-type]
        sides = {side(t.winner) for t in tricks}  # type: ignore[arg-type]
        made_by = sides.pop() if len(sides) == 1 else None
        a["/points/attack"], a["/points/defence"] = points_of(halves["attack"]), points_of(halves["defence"])
        a["/oudlers/attack"], a["/oudlers/defence"] = oudlers["attack"], oudlers["defence"]
        a["/petit_au_bout"] = petit
        a["/chelem/made_by"] = made_by
        score = ref_score(
            n,
            contract,
            taker,
            partner,
            points_of(halves["attack"]),
            oudlers["attack"],
            petit,
            [p["size"] for p in a["/poignees"]],
            bool(d.get("chelem_announced")),
            made_by,
            bool(rules.get("petit_au_bout_to_taker")),
        )
        a.update({"/score" + k: v for k, v in score.items()})
    else:
        # Who plays next: the first leader, the next seat of an unfinished trick, or the winner.
        trick: list[str] = []
        if not tricks:
            seat = first_leader(d, taker)
        elif len(tricks[-1].cards) < n:
            trick = tricks[-1].cards
            seat = (tricks[-1].leader + len(trick)) % n
        else:
            seat = tricks[-1].winner  # type: ignore[assignment]
        a["/next/seat"] = seat
        a["/next/legal"] = None  # §12: unknown without the hands, or the taker's without his discard
        if d.get("hands") is not None and not (seat == taker and "discard" in unknown):
            hand = [c for c in start_hands(d, taker, contract)[seat] if c not in plays]
            first = not tricks or (len(tricks) == 1 and bool(trick))
            a["/next/legal"] = ref_legal(hand, trick, opening_ban(d) if first else None)[0]
    ref.answer = a
    return ref


def ref_first_fault(d: Deal) -> tuple[str, int | None, int | None] | None:
    """The first fault of a record whose deal and bids are sound: discard, poignées, play.

    (code, trick, seat), in the order rules.md §12 reports faults.
    """
    d, unknown = told(d)
    n, table = d["players"], TABLE[d["players"]]
    taker, contract = taker_and_contract(d)
    assert taker is not None and contract is not None
    hands = d["hands"]
    discard = list(d.get("discard") or [])
    if contract in ("garde_sans", "garde_contre"):
        if discard:
            return "discard_size", None, taker
    elif "discard" in unknown:
        pass  # §12: a discard neither given nor proven is not checked
    else:
        available = set(hands[taker]) | set(d.get("dog") or [])
        if len(discard) != table.dog or len(set(discard)) != len(discard):
            return "discard_size", None, taker
        if any(c not in available for c in discard):
            return "discard_not_held", None, taker
        # §4.2, and the variant of the FFT Code text: a hand and dog of kings and trumps only may discard kings.
        only_kings_and_trumps = all(c in KINGS or suit(c) == "T" or c == "EX" for c in available)
        kings_allowed = bool((d.get("rules") or {}).get("discard_kings_when_forced")) and only_kings_and_trumps
        if any(c in OUDLERS or (c in KINGS and not kings_allowed) for c in discard):
            return "discard_king_or_bout", None, taker
        plain = sum(suit(c) in SUITS and c not in KINGS for c in available)
        if sum(suit(c) == "T" for c in discard) > max(0, table.dog - plain):
            return "discard_trump", None, taker
    play = start_hands(d, taker, contract)
    seen: set[int] = set()
    for p in d.get("poignees") or []:
        shown, seat = p["cards"], p["seat"]
        if seat in seen or len(set(shown)) != len(shown):
            return "poignee_duplicate", 0, seat
        seen.add(seat)
        if len(shown) not in table.poignees:
            return "poignee_size", 0, seat
        if seat == taker and "discard" in unknown:
            continue  # §12: his hand is not known whole
        showable = set(play[seat]) | ({c for c in discard if suit(c) == "T"} if seat == taker else set())
        if any(not (suit(c) == "T" or c == "EX") or c not in showable for c in shown):
            return "poignee_card", 0, seat
        if "EX" in shown and any(suit(c) == "T" and c not in shown for c in play[seat]):
            return "poignee_excuse", 0, seat
    leader = first_leader(d, taker)
    plays = d["plays"]
    for start in range(0, len(plays), n):
        t = start // n
        cards = plays[start : start + n]
        # The trick is read from the seat under which most of its cards are held by the
        # seats playing them, the seat due on a tie; another seat leads out of turn.
        fits = [sum(c in play[(first + pos) % n] for pos, c in enumerate(cards)) for first in range(n)]
        best = max(((leader + k) % n for k in range(n)), key=lambda first: fits[first])
        if best != leader:
            return "wrong_leader", t, best
        for pos, card in enumerate(cards):
            seat = (leader + pos) % n
            if card not in play[seat]:
                return "card_not_in_hand", t, seat
            code = ref_fault(play[seat], cards[:pos], card, opening_ban(d) if t == 0 else None)
            if code:
                return code, t, seat
            play[seat].remove(card)
        i = ref_trick_index(cards)
        leader = (leader + (i or 0)) % n
    return None


INCORRIGIBLE = ("renounce", "must_trump", "must_overtrump", "called_suit_lead", "discard_size", "discard_not_held",
                "discard_king_or_bout", "discard_trump")  # fmt: skip
"""Faults of one seat's play or of the discard: incorrigible (§14.2, §14.4)."""


def ref_ruling(d: Deal) -> dict[str, Json] | None:
    """The ruling on a complete deal whose one fault is an incorrigible fault of one seat, or
    None for another record: the side at fault (the taker's for the discard), and the deal void
    when that side won as the cards fell, else counted (§14.2)."""
    if d.get("hands") is None:
        return None
    fault = ref_first_fault(d)
    if fault is None or fault[0] not in INCORRIGIBLE or fault[2] is None:
        return None
    taker, _ = taker_and_contract(d)
    ref = ref_evaluate(d)  # as the cards fell: the tricks read by their cards, no rule asked
    side = "attack" if fault[0].startswith("discard") else ref.side(fault[2])
    if ref.answer["/status"] != "complete" or d.get("poignees") or taker is None:
        return None
    won = ref.answer["/score/won"]
    return {"/ruling/side_at_fault": side, "/ruling/decision": "void" if won == (side == "attack") else "counted"}
