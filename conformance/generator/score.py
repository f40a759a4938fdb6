"""Curated cases: scoring a deal summary (rules.md §1.4, §3.2, §9, §10)."""

from __future__ import annotations

from .assembly import Kit, Topic
from .cards import CONTRACTS, MULTIPLIER, THRESHOLD, Json


# fmt: off
def score_cases(kit: Kit) -> None:
    def case(
        topic: Topic, n: int, description: str, rules: list[str], tags: list[str], request: Json,
        per_defender: int, scores: list[int],
    ) -> None:  # fmt: skip
        want = {"/per_defender": per_defender, "/scores": scores}
        kit.add(topic, n, description, rules, ["scoring", *tags], request, want=want)

    def summary(players: int, contract: str, taker: int, points: float, oudlers: int, **extra: Json) -> Json:
        return {"players": players, "contract": contract, "taker": taker, "points": points, "oudlers": oudlers,
                **extra}  # fmt: skip

    def four(d: int, taker: int = 0) -> list[int]:
        return [3 * d if s == taker else -d for s in range(4)]

    t = kit.topic("score", "thresholds", "Points needed by the oudlers held, and the margin (rules.md §1.4, §9.2).")
    for k in range(4):
        need = THRESHOLD[k]
        for j, (points, won, margin) in enumerate(
            [(need, True, 0), (need + 0.5, True, 1), (need - 0.5, False, 1), (need - 1, False, 1)]
        ):
            verdict = f"wins by {margin}" if won else f"loses by {margin}"
            description = f"With {k} oudler(s) the taker needs {need}: {points} points {verdict}."
            d = (25 + margin) * (1 if won else -1)
            request = summary(4, "prise", 0, points, k)
            kit.add(t, k * 10 + j + 1, description, ["1.4", "9.2"], ["scoring", "oudlers"] +
                    (["half-point"] if points % 1 else []), request,
                    want={"/won": won, "/threshold": need, "/margin": margin, "/per_defender": d,
                          "/scores": four(d)})  # fmt: skip

    t = kit.topic("score", "contracts", "The multiplier of each contract (rules.md §3.2, §9.3).")
    for i, contract in enumerate(CONTRACTS):
        m = MULTIPLIER[contract]
        case(t, i + 1, f"{contract} won by 10: (25 + 10) × {m} per defender.", ["3.2", "9.3"], [],
             summary(4, contract, 1, 51, 2), 35 * m, four(35 * m, 1))
        case(t, i + 11, f"{contract} lost by 10: −(25 + 10) × {m} per defender.", ["3.2", "9.3"], [],
             summary(4, contract, 1, 31, 2), -35 * m, four(-35 * m, 1))
    case(t, 21, "Three players, garde sans won by 10 with one oudler: 140 per defender, the taker twice that.",
         ["3.2", "9.3"], [], summary(3, "garde_sans", 2, 61, 1), 140, [-140, -140, 280])

    t = kit.topic("score", "marks", "Each seat's mark: defenders −D, the taker 2D, 3D or 4D, a partner D (rules.md "
                  "§9.3, §5.2).")
    case(t, 1, "Three players: the taker scores twice what each defender pays.", ["9.3"], [],
         summary(3, "garde", 1, 51, 2), 70, [-70, 140, -70])
    case(t, 2, "Four players: the taker scores three times what each defender pays.", ["9.3"], [],
         summary(4, "prise", 3, 61, 1), 35, [-35, -35, -35, 105])
    case(t, 3, "Five players with a partner: taker 2D, partner D, each of three defenders −D.", ["9.3", "5.2"],
         ["called-card"], summary(5, "garde", 0, 52, 2, partner=3), 72, [144, -72, -72, 72, -72])
    case(t, 4, "Five players, a lost prise with a partner: the loss is shared 2:1.", ["9.3", "5.2"], ["called-card"],
         summary(5, "prise", 4, 30.5, 1, partner=1), -46, [46, -46, 46, 46, -92])
    case(t, 5, "Five players, the taker alone (no partner): 4D against four defenders.", ["9.3", "5.2"],
         ["called-card"], summary(5, "garde_sans", 2, 60, 1, partner=None), 136, [-136, -136, 544, -136, -136])
    case(t, 6, "Five players, the taker called himself (partner = taker): he plays alone, 4D.", ["9.3", "5.2"],
         ["called-card"], summary(5, "garde_sans", 2, 60, 1, partner=2), 136, [-136, -136, 544, -136, -136])
    case(t, 7, "Five players, a lone taker loses: he pays 4D.", ["9.3", "5.2"], ["called-card"],
         summary(5, "prise", 0, 40, 1), -36, [-144, 36, 36, 36, 36])
    case(t, 8, "Four players, a lost garde: the taker pays three times D.", ["9.3"], [],
         summary(4, "garde", 2, 30, 2), -72, [72, 72, -216, 72])

    t = kit.topic("score", "half-point", "Points kept to the half; a leftover half point counts for the winning side "
                  "(rules.md §9.2).")
    case(t, 1, "Three players, 41.5 points with two oudlers: won by 1.", ["9.2"], ["half-point"],
         summary(3, "garde", 1, 41.5, 2), 52, [-52, 104, -52])
    case(t, 2, "Three players, 40.5 points with two oudlers: lost by 1.", ["9.2"], ["half-point"],
         summary(3, "garde", 2, 40.5, 2), -52, [52, 52, -104])
    case(t, 3, "Five players, 50.5 points with one oudler: lost by 1.", ["9.2"], ["half-point", "called-card"],
         summary(5, "prise", 0, 50.5, 1, partner=3), -26, [-52, 26, 26, -26, 26])
    case(t, 4, "Five players, 56.5 points without oudler: won by 1.", ["9.2"], ["half-point", "called-card"],
         summary(5, "garde", 4, 56.5, 0, partner=2), 52, [-52, -52, 52, -52, 104])
    case(t, 5, "Three players, 36.5 points with three oudlers: won by 1.", ["9.2"], ["half-point", "oudlers"],
         summary(3, "prise", 0, 36.5, 3), 26, [52, -26, -26])
    case(t, 6, "Three players, 35.5 points with three oudlers: lost by 1.", ["9.2"], ["half-point", "oudlers"],
         summary(3, "prise", 0, 35.5, 3), -26, [-52, 26, 26])
    case(t, 7, "Five players, 44.5 points with two oudlers: won by 4 (3.5 rounded up).", ["9.2"],
         ["half-point", "called-card"], summary(5, "garde_contre", 1, 44.5, 2, partner=1), 174,
         [-174, 696, -174, -174, -174])
    case(t, 8, "Four players, 45.5 points with two oudlers (an Excuse on the last trick): won by 5.", ["9.2"],
         ["half-point"], summary(4, "prise", 0, 45.5, 2), 30, four(30))

    t = kit.topic("score", "petit-au-bout", "The Petit au bout: 10 × M to the side that took it, won or lost "
                  "(rules.md §9.4).")
    case(t, 1, "Prise won by 10, the attack took the Petit au bout: +10.", ["9.4"], ["petit-au-bout"],
         summary(4, "prise", 0, 51, 2, petit_au_bout="attack"), 45, four(45))
    case(t, 2, "Garde won by 10, the defence took the Petit au bout: −20.", ["9.4"], ["petit-au-bout"],
         summary(4, "garde", 0, 51, 2, petit_au_bout="defence"), 50, four(50))
    case(t, 3, "Prise lost by 11, yet the attack took the Petit au bout: it still earns +10.", ["9.4"],
         ["petit-au-bout"], summary(4, "prise", 0, 40, 1, petit_au_bout="attack"), -26, four(-26))
    case(t, 4, "Three players, garde contre won by 9, the Petit au bout to the defence: −60.", ["9.4"],
         ["petit-au-bout"], summary(3, "garde_contre", 0, 60, 1, petit_au_bout="defence"), 144, [288, -144, -144])
    case(t, 5, "Five players, garde sans won by 4, the Petit au bout to the attack: +40, shared with the partner.",
         ["9.4", "9.3"], ["petit-au-bout", "called-card"],
         summary(5, "garde_sans", 2, 44.5, 2, partner=4, petit_au_bout="attack"), 156, [-156, -156, 312, -156, 156])
    case(t, 6, "Three players, garde lost by 21, the Petit au bout to the defence: −20 more.", ["9.4"],
         ["petit-au-bout"], summary(3, "garde", 0, 30, 1, petit_au_bout="defence"), -112, [-224, 112, 112])
    case(t, 7, "No Petit au bout: no term.", ["9.4"], [], summary(4, "garde_sans", 0, 51, 2, petit_au_bout=None),
         140, four(140))

    def simple(side: str, size: str = "simple") -> dict[str, str]:
        return {"side": side, "size": size}

    t = kit.topic("score", "poignee", "Poignées: 20, 30, 40, never multiplied, to the side that wins the deal "
                  "(rules.md §9.5).")
    base = summary(4, "garde", 0, 51, 2)
    lost = summary(4, "garde", 0, 31, 2)
    case(t, 1, "The taker's simple poignée, contract won: +20.", ["9.5"], ["poignee"],
         {**base, "poignees": [simple("attack")]}, 90, four(90))
    case(t, 2, "The taker's double poignée, contract won: +30.", ["9.5"], ["poignee"],
         {**base, "poignees": [simple("attack", "double")]}, 100, four(100))
    case(t, 3, "The taker's triple poignée, contract won: +40.", ["9.5"], ["poignee"],
         {**base, "poignees": [simple("attack", "triple")]}, 110, four(110))
    case(t, 4, "A defender's simple poignée when the attack wins: it goes to the attack.", ["9.5"], ["poignee"],
         {**base, "poignees": [simple("defence")]}, 90, four(90))
    case(t, 5, "The taker's simple poignée when the contract is lost: it goes to the defence.", ["9.5"], ["poignee"],
         {**lost, "poignees": [simple("attack")]}, -90, four(-90))
    case(t, 6, "A defender's double poignée, contract lost: to the defence.", ["9.5"], ["poignee"],
         {**lost, "poignees": [simple("defence", "double")]}, -100, four(-100))
    case(t, 7, "Two poignées, one by each side, add up for the winning side.", ["9.5"], ["poignee"],
         {**base, "poignees": [simple("attack"), simple("defence")]}, 110, four(110))
    case(t, 11, "Five players, a simple and a double poignée: 50 to the winning side.", ["9.5"],
         ["poignee", "called-card"], {**summary(5, "prise", 0, 51, 2, partner=1),
                                      "poignees": [simple("defence"), simple("attack", "double")]},
         85, [170, 85, -85, -85, -85])  # fmt: skip
    case(t, 8, "A triple poignée in a garde contre: 40, not multiplied by 6.", ["9.5"], ["poignee"],
         {**summary(4, "garde_contre", 0, 51, 2), "poignees": [simple("attack", "triple")]}, 250, four(250))
    case(t, 9, "Three players, the taker's triple poignée with a won prise.", ["9.5"], ["poignee"],
         {**summary(3, "prise", 1, 51, 2), "poignees": [simple("attack", "triple")]}, 75, [-75, 150, -75])
    case(t, 10, "Five players, the partner's simple poignée counts for the attack.", ["9.5", "9.3"],
         ["poignee", "called-card"], {**summary(5, "prise", 0, 51, 2, partner=1), "poignees": [simple("attack")]},
         55, [110, 55, -55, -55, -55])

    t = kit.topic("score", "chelem", "The chelem term C (rules.md §9.6).")
    base = summary(4, "garde", 0, 87, 2)
    case(t, 1, "Chelem announced and made: +400.", ["9.6"], ["chelem"],
         {**base, "chelem": {"announced": True, "made_by": "attack"}}, 542, four(542))
    case(t, 2, "Chelem made without being announced: +200.", ["9.6"], ["chelem"],
         {**summary(4, "garde", 0, 91, 3), "chelem": {"announced": False, "made_by": "attack"}}, 360, four(360))
    case(t, 3, "Chelem announced, not made, contract won: −200.", ["9.6"], ["chelem"],
         {**summary(3, "garde", 2, 82, 2), "chelem": {"announced": True, "made_by": None}}, -68, [68, 68, -136])
    case(t, 4, "Chelem announced, not made, contract lost: −200 on top of the loss.", ["9.6"], ["chelem"],
         {**summary(4, "prise", 0, 40, 1), "chelem": {"announced": True}}, -236, four(-236))
    case(t, 5, "The defence took every trick: −200, each defender gains it.", ["9.6"], ["chelem"],
         {**summary(4, "prise", 1, 7, 1), "chelem": {"made_by": "defence"}}, -269, four(-269, 1))
    case(t, 6, "A chelem announced by the taker and made by the defence: both terms, −400.", ["9.6"], ["chelem"],
         {**summary(4, "prise", 0, 5, 0), "chelem": {"announced": True, "made_by": "defence"}}, -476, four(-476))
    case(t, 7, "The chelem term is never multiplied: garde contre, chelem made unannounced, the dog's 3 points the "
         "defence's.", ["9.6"], ["chelem"],
         {**summary(3, "garde_contre", 1, 88, 3), "chelem": {"made_by": "attack"}}, 662, [-662, 1324, -662])
    case(t, 8, "Five players, chelem announced and made with a partner: the partner shares it.", ["9.6", "9.3"],
         ["chelem", "called-card"],
         {**summary(5, "garde", 0, 91, 3, partner=2), "chelem": {"announced": True, "made_by": "attack"}},
         560, [1120, -560, 560, -560, -560])

    t = kit.topic("score", "fft-examples", "The FFT's worked examples at four players (rules.md §10).")
    attack_simple = [simple("attack")]
    case(t, 1, "Garde, 49 points with 2 oudlers, the taker's simple poignée and Petit au bout: D = 106.",
         ["10", "9.3", "9.4", "9.5"], ["poignee", "petit-au-bout"],
         summary(4, "garde", 0, 49, 2, petit_au_bout="attack", poignees=attack_simple), 106, four(106))
    case(t, 2, "Garde sans won by 4, the Petit au bout to the defence: D = 76.", ["10", "9.3", "9.4"],
         ["petit-au-bout"], summary(4, "garde_sans", 0, 55, 1, petit_au_bout="defence"), 76, four(76))
    case(t, 3, "Prise lost by 7, the taker showed a simple poignée and took the Petit au bout: D = −42.",
         ["10", "9.3", "9.4", "9.5"], ["poignee", "petit-au-bout"],
         summary(4, "prise", 0, 44, 1, petit_au_bout="attack", poignees=attack_simple), -42, four(-42))
    case(t, 4, "Garde won by 11, a defender showed a simple poignée: D = 92.", ["10", "9.3", "9.5"], ["poignee"],
         summary(4, "garde", 0, 62, 1, poignees=[simple("defence")]), 92, four(92))
    case(t, 5, "Garde, chelem announced and made, simple poignée, Petit au bout, the defence kept its Excuse: 87 "
         "points, D = 582.", ["10", "9.6", "8.2"], ["poignee", "petit-au-bout", "chelem"],
         summary(4, "garde", 0, 87, 2, petit_au_bout="attack", poignees=attack_simple,
                 chelem={"announced": True, "made_by": "attack"}), 582, four(582))  # fmt: skip

    t = kit.topic("score", "pousse", "Pousse, another name for garde under the pousse_alias variant (rules.md §3.4, "
                  "§11).")
    case(t, 1, "Under pousse_alias a pousse scores as a garde: ×2.", ["3.4", "11"], [],
         summary(4, "pousse", 0, 51, 2, rules={"pousse_alias": True}), 70, four(70))
    case(t, 2, "Under pousse_alias the Petit au bout of a pousse is 10 × 2.", ["3.4", "11", "9.4"], ["petit-au-bout"],
         summary(3, "pousse", 2, 40, 2, petit_au_bout="defence", rules={"pousse_alias": True}), -72, [72, 72, -144])
    case(t, 3, "A garde, flag or not, scores the same as a pousse under the flag.", ["3.2", "11"], [],
         summary(4, "garde", 0, 51, 2, rules={"pousse_alias": True}), 70, four(70))

    t = kit.topic("score", "petit-au-bout-to-taker", "The Petit au bout for the taker's side whoever took it, under "
                  "the petit_au_bout_to_taker variant (the French Tarot rules page; rules.md §9.4, §11).")
    to_taker = {"petit_au_bout_to_taker": True}
    case(t, 1, "A garde won with 50 points, the Petit au bout taken by the defence: −10 × 2 by default, D = 48.",
         ["9.4"], ["petit-au-bout"], summary(4, "garde", 0, 50, 2, petit_au_bout="defence"), 48, four(48))
    case(t, 2, "The same under the variant: +10 × 2 for the taker's side, D = 88, 40 more.", ["9.4", "11"],
         ["petit-au-bout"], summary(4, "garde", 0, 50, 2, petit_au_bout="defence", rules=to_taker), 88, four(88))
    case(t, 3, "Under the variant a lost prise still gains the Petit au bout the defence took: −(25 + 11) + 10.",
         ["9.4", "11"], ["petit-au-bout"],
         summary(3, "prise", 1, 40, 1, petit_au_bout="defence", rules=to_taker), -26, [26, -52, 26])
    case(t, 4, "Under the variant the taker's own Petit au bout counts as always.", ["9.4", "11"], ["petit-au-bout"],
         summary(5, "garde_sans", 2, 44.5, 2, partner=4, petit_au_bout="attack", rules=to_taker), 156,
         [-156, -156, 312, -156, 156])
# fmt: on
