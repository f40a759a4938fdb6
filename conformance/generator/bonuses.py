"""Curated deals of chapter 9: chelem, Petit au bout and poignées (rules.md §9.4–9.6)."""

from __future__ import annotations

from .assembly import Kit
from .building import at_trick, chain, fault, find_deal, highest, keep, make_deal, plain, show, trumps
from .cards import KINGS, MULTIPLIER, Deal, Json
from .oracle import Ref, ref_evaluate


def chelem_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "chelem",
        "Chelems announced or not, made, failed or turned against the taker (rules.md §2, §9.6, §11).",
    )
    top = trumps(4, 21)
    low = plain("SHDC", 1, 6)
    # fmt: off
    kit.add_rows(t, [
        (1, "A chelem announced: the taker leads the first trick, takes every trick, and gains 400.", ["2", "9.6"],
         ["chelem"], make_deal(4, "chelem-1", dealer=0, taker=2, contract="garde_sans", fixed={2: top}, chelem=True),
         {"/tricks/0/leader": 2, "/chelem/made_by": "attack", "/score/chelem": 400}),
        (2, "A chelem made without an announce: +200.", ["9.6"], ["chelem"],
         find_deal("chelem-2", lambda s: make_deal(3, s, dealer=1, taker=1, contract="garde_sans",
                                                   fixed={1: [*trumps(3, 21), *KINGS, "QS"]}, policy=highest(1)),
                   lambda d, r: r.answer["/chelem/made_by"] == "attack"),
         {"/chelem/made_by": "attack", "/chelem/announced": False, "/score/chelem": 200}),
        (3, "A chelem announced but one trick lost: −200.", ["9.6"], ["chelem"],
         find_deal("chelem-3", lambda s: make_deal(4, s, dealer=1, taker=1, contract="garde", chelem=True,
                                                   fixed={1: [*trumps(6, 21), "2S", "3H"]}),
                   lambda d, r: r.answer["/chelem/made_by"] is None),
         {"/chelem/made_by": None, "/score/chelem": -200}),
        (4, "The defence takes every trick: −200 for the taker's side.", ["9.6"], ["chelem"],
         make_deal(3, "chelem-4", dealer=2, taker=2, contract="garde_contre", fixed={2: low}),
         {"/chelem/made_by": "defence", "/score/chelem": -200, "/points/attack": 0}),
        (5, "A chelem announced by a taker who then takes no trick: both terms, −400.", ["9.6", "2"], ["chelem"],
         make_deal(3, "chelem-5", dealer=2, taker=2, contract="garde_contre", fixed={2: low}, chelem=True),
         {"/tricks/0/leader": 2, "/chelem/made_by": "defence", "/score/chelem": -400}),
        (6, "Variant first_lead after_taker: an announced chelem still gives the first lead to the taker.",
         ["2", "11", "9.6"], ["chelem"],
         make_deal(4, "chelem-6", dealer=0, taker=2, contract="garde_sans", fixed={2: top}, chelem=True,
                   rules={"first_lead": "after_taker"}),
         {"/tricks/0/leader": 2, "/chelem/made_by": "attack"}),
        (7, "Five players: the taker's side, taker and partner, takes every trick of an announced chelem.",
         ["9.6", "9.3"], ["chelem", "called-card"],
         make_deal(5, "chelem-7", dealer=4, taker=0, contract="garde", called="KH", chelem=True,
                   fixed={0: trumps(7, 21), 3: ["KH"]}),
         {"/partner": 3, "/chelem/made_by": "attack", "/score/chelem": 400}),
    ])
    # fmt: on


def petit_au_bout_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "petit-au-bout",
        "The Petit au bout: the Petit in the last trick, or in the one before "
        "when the chelem side leads the Excuse to the last (rules.md §9.4).",
    )

    def petit_last(players: int, name: str, played_by: str, won_by: str, **kw: Json) -> Deal:
        def accept(d: Deal, r: Ref) -> bool:
            last = r.tricks[-1]
            if "1T" not in last.cards or r.side(last.seat_of("1T", players)) != played_by:
                return False
            return r.side(last.winner) == won_by and all(  # type: ignore[arg-type]
                r.answer.get(k, v) == v for k, v in kw.items()
            )

        return find_deal(name, lambda s: make_deal(players, s, policy=keep("1T")), accept)

    # (number, players, the Petit played by, the last trick won by, verdicts asked of the deal, description)
    # fmt: off
    cases: list[tuple[int, int, str, str, dict[str, Json], str]] = [
        (1, 4, "attack", "attack", {},
         "The taker plays the Petit to the last trick and wins it: the attack earns 10 × M."),
        (2, 4, "attack", "defence", {},
         "The taker plays the Petit to the last trick, the defence wins it: the defence earns it."),
        (3, 3, "defence", "attack", {},
         "A defender plays the Petit to the last trick, the taker wins it: the attack earns it."),
        (4, 5, "attack", "attack", {"/score/won": False},
         "The attack takes the Petit au bout in a contract it loses: it still earns it."),
        (5, 3, "defence", "defence", {"/score/won": True},
         "The defence takes the Petit au bout while the taker makes his contract."),
        (6, 4, "defence", "defence", {"/contract": "garde_contre"}, "Garde contre: the Petit au bout is worth 10 × 6."),
    ]
    # fmt: on
    for n, players, played_by, won_by, extra, description in cases:
        d = petit_last(players, f"petit-au-bout-{n}", played_by, won_by, **extra)
        m = MULTIPLIER[d["contract"]]
        kit.add(t, n, description, ["9.4"], ["petit-au-bout", "oudlers"], d,
                want={"/petit_au_bout": won_by, "/score/petit_au_bout": 10 * m * (1 if won_by == "attack" else -1),
                      **extra})  # fmt: skip
    # fmt: off
    kit.add_rows(t, [
        (7, "The chelem side plays the Petit to the second-to-last trick and leads the Excuse to the last: the Petit "
         "counts as au bout.", ["9.4", "7", "8.4"], ["petit-au-bout", "chelem", "excuse"],
         make_deal(4, "petit-au-bout-7", dealer=3, taker=1, contract="garde_sans", chelem=True,
                   fixed={1: ["1T", *trumps(6, 21), "EX"]}, policy=chain(at_trick(1, 16, "1T"), keep("1T", "EX"))),
         {"/petit_au_bout": "attack", "/excuse/outcome": "took_last_trick", "/chelem/made_by": "attack"}),
        (8, "Five players: the Petit in the second-to-last trick, then the partner plays the Excuse, not leading, to "
         "the last: no Petit au bout.", ["9.4", "7"], ["petit-au-bout", "chelem", "excuse", "called-card"],
         make_deal(5, "petit-au-bout-8", dealer=4, taker=0, contract="garde_sans", called="KS", chelem=True,
                   fixed={0: ["1T", *trumps(8, 21)], 2: ["KS", "EX"]},
                   policy=chain(at_trick(0, 13, "1T"), keep("1T", "EX"))),
         {"/petit_au_bout": None, "/excuse/outcome": "took_last_trick"}),
    ])
    # fmt: on


def poignee_cases(kit: Kit) -> None:
    t = kit.topic(
        "evaluate",
        "poignee",
        "Poignées shown, their tier and side, and poignées that break the rules (rules.md §9.5, §4.2, §12).",
    )

    def entry(seat: int, side: str, size: str) -> dict[str, Json]:
        return {"seat": seat, "side": side, "size": size}

    forced_hand = [*KINGS, *trumps(1, 13), "EX"]
    forced_dog = ["14T", "15T", "1S", "2S", "3S", "4S"]

    def forced(name: str, shown: list[str]) -> Deal:
        return make_deal(4, name, taker=0, contract="garde", fixed={0: forced_hand}, dog=forced_dog,
                         discard=["1S", "2S", "3S", "4S", "14T", "15T"],
                         poignees=lambda d: [{"seat": 0, "cards": shown}])  # fmt: skip

    two = make_deal(4, "poignee-12", taker=0, contract="garde_sans", fixed={0: trumps(12, 21), 2: trumps(2, 11)},
                    poignees=lambda d: show(0, 10)(d) + show(2, 10)(d))  # fmt: skip
    # fmt: off
    kit.add_rows(t, [
        (1, "The taker shows ten trumps at four players, a simple poignée, and makes his contract: +20.", ["9.5"],
         ["poignee"],
         find_deal("poignee-1", lambda s: make_deal(4, s, taker=2, contract="garde", fixed={2: trumps(11, 21)},
                                                    poignees=show(2, 10)),
                   lambda d, r: r.answer["/score/won"]),
         {"/poignees": [entry(2, "attack", "simple")], "/score/poignees": 20}),
        (2, "A defender shows thirteen trumps, a double poignée; the taker wins, so the 30 go to him.", ["9.5"],
         ["poignee"],
         find_deal("poignee-2", lambda s: make_deal(4, s, taker=0, contract="prise", fixed={1: trumps(1, 13)},
                                                    poignees=show(1, 13)),
                   lambda d, r: r.answer["/score/won"]),
         {"/poignees": [entry(1, "defence", "double")], "/score/poignees": 30}),
        (3, "Three players: the taker's simple poignée of thirteen, contract lost: the 20 go to the defence.", ["9.5"],
         ["poignee"],
         find_deal("poignee-3", lambda s: make_deal(3, s, taker=1, contract="garde", fixed={1: trumps(1, 13)},
                                                    poignees=show(1, 13)),
                   lambda d, r: not r.answer["/score/won"]),
         {"/poignees": [entry(1, "attack", "simple")], "/score/poignees": -20}),
        (4, "Eleven trumps shown at four players: not a tier's number.", ["9.5"], ["poignee"],
         make_deal(4, "poignee-4", taker=0, fixed={3: trumps(5, 16)}, poignees=show(3, 11)),
         fault("poignee_size", 0, 3)),
        (5, "A poignée showing a trump another seat holds.", ["9.5"], ["poignee"],
         make_deal(4, "poignee-5", taker=0, fixed={1: trumps(10, 19), 2: ["20T"]},
                   poignees=lambda d: [{"seat": 1, "cards": [*trumps(11, 19), "20T"]}]),
         fault("poignee_card", 0, 1)),
        (6, "A poignée showing a king among nine trumps.", ["9.5"], ["poignee"],
         make_deal(4, "poignee-6", taker=0, fixed={1: [*trumps(10, 18), "KS"]},
                   poignees=lambda d: [{"seat": 1, "cards": [*trumps(10, 18), "KS"]}]),
         fault("poignee_card", 0, 1)),
        (7, "The Excuse shown in place of a trump while two trumps stay hidden.", ["9.5"], ["poignee", "excuse"],
         make_deal(4, "poignee-7", taker=0, fixed={2: [*trumps(5, 15), "EX"]}, poignees=show(2, 10, excuse=True)),
         fault("poignee_excuse", 0, 2)),
        (8, "Nine trumps and the Excuse, all shown: the Excuse stands in for the missing trump.", ["9.5"],
         ["poignee", "excuse"],
         make_deal(4, "poignee-8", taker=0, contract="garde_sans", fixed={3: [*trumps(3, 11), "EX", *plain("H", 1, 8)]},
                   poignees=lambda d: [{"seat": 3, "cards": [*trumps(3, 11), "EX"]}]),
         {"/valid": True, "/poignees": [entry(3, "defence", "simple")]}),
        (9, "One seat showing two poignées.", ["9.5"], ["poignee"],
         make_deal(3, "poignee-9", taker=2, fixed={0: trumps(1, 13)}, poignees=lambda d: show(0, 13)(d) * 2),
         fault("poignee_duplicate", 0, 0)),
        (10, "Fourteen trumps held, ten shown: a lower tier than the hand allows is a simple poignée.", ["9.5"],
         ["poignee"],
         make_deal(4, "poignee-10", taker=1, contract="garde_contre", fixed={1: trumps(8, 21)}, poignees=show(1, 10)),
         {"/valid": True, "/poignees": [entry(1, "attack", "simple")]}),
        (11, "Five players: the partner's poignée of eight counts for the taker's side.", ["9.5", "5.2"],
         ["poignee", "called-card"],
         make_deal(5, "poignee-11", taker=0, contract="garde", called="KD", fixed={3: ["KD", *trumps(12, 19)]},
                   poignees=show(3, 8)),
         {"/partner": 3, "/poignees": [entry(3, "attack", "simple")]}),
        (12, "Two simple poignées, the taker's and a defender's: 40 to the side that wins the deal.", ["9.5"],
         ["poignee"], two,
         {"/poignees": [entry(0, "attack", "simple"), entry(2, "defence", "simple")],
          "/score/poignees": 40 if ref_evaluate(two).answer["/score/won"] else -40}),
        (13, "Four kings and two trumps discarded by force: the thirteen trumps kept, the Excuse and a discarded "
         "trump shown again make a triple.", ["9.5", "4.2"], ["poignee", "excuse", "discard"],
         forced("poignee-13", [*trumps(1, 13), "EX", "14T"]),
         {"/valid": True, "/poignees": [entry(0, "attack", "triple")]}),
        (14, "The same hand showing twelve trumps and the Excuse while the 13 stays hidden: refused.", ["9.5"],
         ["poignee", "excuse", "discard"], forced("poignee-14", [*trumps(1, 12), "EX"]),
         fault("poignee_excuse", 0, 0)),
        (15, "The same hand showing the fifteen trumps of hand and discard: a triple.", ["9.5", "4.2"],
         ["poignee", "discard"], forced("poignee-15", trumps(1, 15)),
         {"/valid": True, "/poignees": [entry(0, "attack", "triple")]}),
    ])
    # fmt: on
