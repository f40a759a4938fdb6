"""Curated cases: who wins a trick (rules.md §1.1, §7)."""

from __future__ import annotations

from .assembly import Kit, Topic
from .cards import cards


# fmt: off
def winner_cases(kit: Kit) -> None:
    def case(
        topic: Topic, n: int, description: str, rules: list[str], tags: list[str], players: int, leader: int,
        trick: str, winner: int | None,
    ) -> None:  # fmt: skip
        request = {"players": players, "leader": leader, "cards": cards(trick)}
        kit.add(topic, n, description, rules, ["trick-winner", *tags], request, want={"/winner": winner})

    t = kit.topic("winner", "trick-winner", "Who wins a trick: the highest trump, else the highest card of the led "
                  "suit (rules.md §7, ranks of §1.1).")
    case(t, 1, "No trump: the highest card of the led suit wins.", ["7"], [], 4, 0, "3S KS QS 1S", 1)
    case(t, 2, "No trump: cards of other suits never win, however high.", ["7"], [], 4, 0, "3S KH QD 1C", 0)
    case(t, 3, "A trump beats every card of the led suit.", ["7"], ["trump"], 3, 0, "KS 2T QS", 1)
    case(t, 4, "The highest trump wins.", ["7"], ["trump"], 4, 0, "KS 2T 21T 20T", 2)
    case(t, 5, "Trumps led: the highest trump wins.", ["7"], ["trump"], 3, 0, "5T 7T 1T", 1)
    case(t, 6, "Seats count from the leader: seat 3 leads, the second card wins, seat 0 takes it.", ["7", "2"], [],
         4, 3, "3S KS QS 1S", 0)
    case(t, 7, "Five players: the king of diamonds, fourth card after a lead by seat 2, wins for seat 0.", ["7", "2"],
         [], 5, 2, "7D ND 2D KD 10D", 0)
    case(t, 8, "The Petit, lowest trump, beats a king.", ["7", "1.1"], ["trump", "oudlers"], 4, 2, "QS EX 1T KS", 0)
    case(t, 9, "A trick in progress: the card winning so far, not complete.", ["7"], [], 4, 1, "3H 5H", 2)
    case(t, 10, "A trick in progress, already trumped.", ["7"], ["trump"], 5, 4, "9C 4T 2C", 0)
    case(t, 11, "The Petit led and followed by plain cards wins the trick.", ["7"], ["trump", "oudlers"], 3, 2,
         "1T KS QS", 2)
    case(t, 12, "The 21 beats every other card.", ["7", "1.1"], ["trump", "oudlers"], 5, 0, "20T 19T 21T 18T 17T", 2)
    case(t, 13, "Ranks: the knight beats the jack.", ["1.1", "7"], [], 3, 0, "JS NS 2S", 1)
    case(t, 14, "Ranks: the jack beats the ten.", ["1.1", "7"], [], 3, 1, "10H JH 9H", 2)
    case(t, 15, "Ranks: the ace is the lowest card of its suit; the 2 beats it.", ["1.1", "7"], [], 3, 0,
         "1D 2D", 1)
    case(t, 16, "Ranks: the king beats the queen, the queen the knight.", ["1.1", "7"], [], 4, 0, "NC QC KC JC", 2)
    case(t, 17, "Trumps rank by number: the 10 beats the 9.", ["1.1", "7"], ["trump"], 4, 2, "9T 10T 2S 3S", 3)
    case(t, 18, "One card played: its player wins so far.", ["7"], [], 4, 3, "4D", 3)

    t = kit.topic("winner", "excuse", "The Excuse in a trick: it never wins it (rules.md §7; the last-trick chelem "
                  "exception is applied by the deal evaluation, §12).")
    case(t, 1, "The Excuse led never wins: the next card sets the suit and the highest of it wins.", ["7", "6"],
         ["excuse"], 3, 0, "EX 3S 1S", 1)
    case(t, 2, "The Excuse led: hearts set by the second card, the queen of hearts wins.", ["7", "6"], ["excuse"],
         4, 1, "EX 2H KS QH", 0)
    case(t, 3, "The Excuse played last does not win.", ["7"], ["excuse"], 3, 0, "3S 1S EX", 0)
    case(t, 4, "The Excuse led, then a trump: trumps led, the trump wins.", ["7", "6"], ["excuse", "trump"],
         3, 2, "EX 4T 5H", 0)
    case(t, 5, "Only the Excuse played: no winner yet.", ["7", "12"], ["excuse"], 4, 0, "EX", None)
    case(t, 6, "Five players, the Excuse among trumps: the highest trump wins.", ["7"], ["excuse", "trump"],
         5, 3, "KC EX 2T 3C 21T", 2)
    case(t, 7, "A last trick out of context: the trick-winner operation never applies the chelem exception.",
         ["7", "12"], ["excuse"], 3, 0, "EX KS QS", 1)
    case(t, 8, "The Excuse led, a king of clubs then the Petit: the Petit wins.", ["7", "6"],
         ["excuse", "trump", "oudlers"], 4, 0, "EX KC 1T QC", 2)
# fmt: on
