"""Curated cases: the legal cards of a position (rules.md §5.3, §6)."""

from __future__ import annotations

from .assembly import Kit, Topic
from .cards import Json, cards


# fmt: off
def legal_cases(kit: Kit) -> None:
    def case(
        topic: Topic, n: int, description: str, sections: list[str], tags: list[str], players: int, hand: str,
        trick: str, legal: str, reason: str, **extra: Json,
    ) -> None:  # fmt: skip
        request = {"players": players, "hand": cards(hand), "trick": cards(trick), **extra}
        kit.add(topic, n, description, sections, tags, request, want={"/legal": cards(legal), "/reason": reason})

    t = kit.topic("legal-cards", "lead", "Leading a trick: no suit led yet, any card (rules.md §6.2, §6.1).")
    case(t, 1, "Leading, the player may play any card of his hand.", ["6.2"], [],
         4, "KS 2H 5T EX", "", "KS 2H 5T EX", "lead")
    case(t, 2, "Leading with nothing but trumps and the Excuse, any of them may be led.", ["6.2", "6.1"], ["excuse"],
         3, "1T 7T 21T EX", "", "1T 7T 21T EX", "lead")
    case(t, 3, "Only the Excuse has been played: there is no led suit yet, so any card may follow.", ["6", "6.2"],
         ["excuse"], 4, "KS 2H 5T", "EX", "KS 2H 5T", "lead")
    case(t, 4, "Five players after the first trick: no opening-lead ban, any card may be led.", ["6.2", "5.3"],
         ["called-card"], 5, "3S 5S 2H 7T", "", "3S 5S 2H 7T", "lead", first_trick=False, called_card="KS")
    case(t, 5, "A hand holding only the Excuse leads it.", ["6.1", "6.2"], ["excuse"], 4, "EX", "", "EX", "lead")
    case(t, 6, "Five players, opening lead, the called suit not held: nothing is barred and any card may be led.",
         ["5.3", "6.2"], ["called-card", "first-lead-ban"], 5, "2H 7H 5T EX", "", "2H 7H 5T EX", "lead",
         first_trick=True, called_card="KS")
    case(t, 7, "Three players, the Excuse led: the second player, void of nothing, may play any card.", ["6", "6.2"],
         ["excuse"], 3, "1S QH 4D 9C 12T", "EX", "1S QH 4D 9C 12T", "lead")
    case(t, 8, "Leading: kings and the Petit may be led like any other card.", ["6.2"], ["oudlers"],
         5, "KS KH 1T", "", "KS KH 1T", "lead")

    t = kit.topic("legal-cards", "follow-suit", "Following the led plain suit (rules.md §6.3, §6.1, §1.5).")
    case(t, 1, "Holding the led suit, the player must follow it, needing not go higher; the Excuse may be played.",
         ["6.3", "6.1"], ["follow-suit", "excuse"], 4, "1S KS 2H 5T EX", "QS", "1S KS EX", "follow")
    case(t, 2, "After an Excuse lead the next card sets the suit: hearts must be followed.", ["6", "6.3"],
         ["follow-suit", "excuse"], 4, "1S 2H 5T", "EX 3H", "2H", "follow")
    case(t, 3, "The led suit must be followed even when the trick is already trumped.", ["6.3"],
         ["follow-suit", "trump"], 4, "1S 2H 5T", "QS 4T", "1S", "follow")
    case(t, 4, "Holding one card of the led suit and the Excuse: either may be played, not a trump.", ["6.3", "6.1"],
         ["follow-suit", "excuse"], 4, "7D 10T EX", "KD 2D", "7D EX", "follow")
    case(t, 5, "Five players, fifth to play: follow clubs even though a trump already wins the trick.", ["6.3"],
         ["follow-suit"], 5, "1C KC 21T EX", "7C NC 2C 3T", "1C KC EX", "follow")
    case(t, 6, "Following suit the player may play low while holding the king.", ["6.3"],
         ["follow-suit"], 3, "1H KH 12T", "QH", "1H KH", "follow")
    case(t, 7, "Holding the led suit, a player may not trump instead.", ["6.3"], ["follow-suit", "trump"],
         4, "5C 15T 16T", "KC", "5C", "follow")
    case(t, 8, "Card codes on the wire: 1D is the ace of diamonds, ND its knight, 10D its ten; all follow.",
         ["1.5", "6.3"], ["follow-suit", "excuse"], 4, "1D 10D ND NC EX", "JD", "1D 10D ND EX", "follow")
    case(t, 9, "Three players, second to play: follow the led spade with any spade held.", ["6.3"],
         ["follow-suit"], 3, "2S 9S JS 3H 4T", "10S", "2S 9S JS", "follow")
    case(t, 10, "A king led by the opponent does not have to be beaten: any card of its suit will do.", ["6.3"],
         ["follow-suit"], 4, "2C 3C QC 21T", "KC 1C", "2C 3C QC", "follow")

    t = kit.topic("legal-cards", "trump",
                  "Void in the led suit, or trumps led: trump, overtrump, undertrump (rules.md §6.4).")
    case(t, 1, "Void in the led suit, the player must trump, with any trump as none is in the trick yet.", ["6.4"],
         ["trump"], 4, "2H 5T 9T", "QS", "5T 9T", "trump")
    case(t, 2, "Void in the led suit with one trump and the Excuse: the trump or the Excuse.", ["6.4", "6.1"],
         ["trump", "excuse"], 4, "2H 5T EX", "QS", "5T EX", "trump")
    case(t, 3, "A trump is in the trick: the player must go above it when he can.", ["6.4"],
         ["trump", "overtrump"], 4, "2H 5T 9T 12T", "QS 8T", "9T 12T", "overtrump")
    case(t, 4, "Five players: overtrump even when the trump in the trick may be a partner's.", ["6.4"],
         ["trump", "overtrump"], 5, "2H 5T 9T", "QS 8T 3S", "9T", "overtrump")
    case(t, 5, "Unable to overtrump, the player must still trump, with any of his trumps (undertrump).", ["6.4"],
         ["trump", "undertrump"], 4, "2H 5T 6T", "QS 8T", "5T 6T", "undertrump")
    case(t, 6, "Trumps led: the player must play a trump above the highest in the trick when he can.", ["6.4"],
         ["trump", "overtrump"], 4, "KS 3T 15T", "10T", "15T", "overtrump")
    case(t, 7, "Trumps led and no trump high enough: any trump, never a plain card.", ["6.4"],
         ["trump", "undertrump"], 4, "KS 3T 5T", "10T", "3T 5T", "undertrump")
    case(t, 8, "The Excuse led then a trump: trumps are the led suit and must be overtrumped.", ["6", "6.4"],
         ["trump", "overtrump", "excuse"], 4, "KS 3T 15T", "EX 10T", "15T", "overtrump")
    case(t, 9, "The Petit as the only trump under the 21 must be played: it is forced out.", ["6.4"],
         ["trump", "undertrump", "oudlers"], 3, "KS 1T", "21T", "1T", "undertrump")
    case(t, 10, "Overtrumping, the Excuse remains playable.", ["6.4", "6.1"], ["trump", "overtrump", "excuse"],
         4, "KS 12T EX", "QH 9T", "12T EX", "overtrump")
    case(t, 11, "Only trumps above the highest one in the trick count, not above the first.", ["6.4"],
         ["trump", "overtrump"], 4, "3T 10T 15T", "QS 8T 14T", "15T", "overtrump")
    case(t, 12, "Undertrumping, the Excuse remains playable.", ["6.4", "6.1"], ["trump", "undertrump", "excuse"],
         4, "2T EX", "KC 20T", "2T EX", "undertrump")
    case(t, 13, "Trumps led with the Petit: every trump held is higher, so any of them.", ["6.4"],
         ["trump", "overtrump"], 3, "KS 3T 15T", "1T", "3T 15T", "overtrump")
    case(t, 14, "Five players, void in spades, the 21 as only trump: it must be played.", ["6.4"],
         ["trump"], 5, "2D 21T", "5S", "21T", "trump")
    case(t, 15, "Void in the led suit, holding kings and trumps: a king may not be thrown instead of trumping.",
         ["6.4"], ["trump"], 4, "KS KH 4T", "QD", "4T", "trump")
    case(t, 16, "Five players, fourth to play: overtrump the 18 with the 19 or the 20.", ["6.4"],
         ["trump", "overtrump"], 5, "5T 19T 20T 3H", "2C 4C 18T", "19T 20T", "overtrump")

    t = kit.topic("legal-cards", "discard", "Neither the led suit nor a trump: any card (rules.md §6.5).")
    case(t, 1, "Void in the led suit and without trumps, any card may be played.", ["6.5"], ["discard", "excuse"],
         4, "2H 3D EX", "QS", "2H 3D EX", "discard")
    case(t, 2, "Trumps led and none held: any card.", ["6.5"], ["discard", "trump"], 4, "KS 2H", "10T", "KS 2H",
         "discard")
    case(t, 3, "The Excuse as last card may be played to any trick.", ["6.1", "6.5"], ["discard", "excuse"],
         4, "EX", "QS 5T", "EX", "discard")
    case(t, 4, "The Excuse as last card on a trump lead.", ["6.1", "6.5"], ["discard", "excuse"], 3, "EX", "10T",
         "EX", "discard")
    case(t, 5, "Kings may be thrown when the player has neither the suit nor a trump.", ["6.5"], ["discard"],
         4, "KS KH KD", "5C 7T", "KS KH KD", "discard")
    case(t, 6, "The Excuse led then a trump, no trump held: any card.", ["6", "6.5"], ["discard", "excuse"],
         4, "2H 3D", "EX 4T", "2H 3D", "discard")
    case(t, 7, "Five players, last to play, void in clubs without trumps: any card.", ["6.5"], ["discard"],
         5, "QH 4D 9S", "2C 7C 3T JC", "9S QH 4D", "discard")

    t = kit.topic("legal-cards", "excuse", "The Excuse may be played at any moment (rules.md §6.1).")
    case(t, 1, "Leading: the Excuse is among the cards that may be led.", ["6.1", "6.2"], ["excuse"],
         3, "4S EX", "", "4S EX", "lead")
    case(t, 2, "Following suit: the Excuse instead of the led suit.", ["6.1", "6.3"], ["excuse", "follow-suit"],
         4, "4S 8S EX", "JS", "4S 8S EX", "follow")
    case(t, 3, "Void and holding trumps: the Excuse instead of trumping.", ["6.1", "6.4"], ["excuse", "trump"],
         5, "3T 8T EX", "4D", "3T 8T EX", "trump")
    case(t, 4, "Able to overtrump: the Excuse instead of overtrumping.", ["6.1", "6.4"], ["excuse", "overtrump"],
         4, "3T 18T EX", "4D 11T", "18T EX", "overtrump")
    case(t, 5, "Unable to overtrump: the Excuse instead of a lower trump.", ["6.1", "6.4"], ["excuse", "undertrump"],
         3, "3T EX", "4D 11T", "3T EX", "undertrump")
    case(t, 6, "Five players, opening lead under the ban: the Excuse may be led.", ["6.1", "5.3"],
         ["excuse", "first-lead-ban", "called-card"], 5, "3C 8C 6H EX", "", "6H EX", "called_suit_ban",
         first_trick=True, called_card="KC")
    case(t, 7, "The Excuse played while the player holds the 21 on a trump lead.", ["6.1", "6.4"],
         ["excuse", "overtrump", "oudlers"], 4, "21T EX 2S", "20T", "21T EX", "overtrump")

    t = kit.topic("legal-cards", "called-suit-ban",
                  "Five players: the opening lead may not be in the called card's suit (rules.md §5.3, §11, §12).")
    ban = {"first_trick": True, "called_card": "KS"}
    tags = ["first-lead-ban", "called-card"]
    case(t, 1, "Opening lead, king of spades called: no spade may be led while other cards are held.",
         ["5.3", "6.2"], tags, 5, "3S 5S 2H 7T", "", "2H 7T", "called_suit_ban", **ban)
    case(t, 2, "Opening lead: the called card itself may be led.", ["5.3"], tags, 5, "3S KS 2H", "", "KS 2H",
         "called_suit_ban", **ban)
    case(t, 3, "Opening lead with nothing but the called suit: the ban lifts.", ["5.3"], tags, 5, "3S 5S", "",
         "3S 5S", "lead", **ban)
    case(t, 4, "Opening lead with the called suit and the Excuse: the Excuse counts as something else, it is led.",
         ["5.3", "12", "6.1"], [*tags, "excuse"], 5, "3S 5S EX", "", "EX", "called_suit_ban", **ban)
    case(t, 5, "The Excuse led to the first trick: the ban passes to the player who sets the suit.", ["5.3", "6"],
         [*tags, "excuse"], 5, "3S 2H", "EX", "2H", "called_suit_ban", **ban)
    case(t, 6, "Once a suit is led on the first trick the ban is over: spades are followed.", ["5.3", "6.3"],
         [*tags, "follow-suit"], 5, "3S 2H", "4S", "3S", "follow", **ban)
    case(t, 7, "After the first trick there is no ban.", ["5.3", "6.2"], tags, 5, "3S 5S 2H", "", "3S 5S 2H",
         "lead", first_trick=False, called_card="KS")
    case(t, 8, "Variant called_suit_lead_ban false: the opening lead may be in the called suit.", ["11", "5.3"],
         tags, 5, "3S 5S 2H 7T", "", "3S 5S 2H 7T", "lead", **ban, rules={"called_suit_lead_ban": False})
    case(t, 9, "A queen called (taker with all four kings): hearts but the queen itself are barred.", ["5.1", "5.3"],
         tags, 5, "2H 7H QH KS 5T", "", "QH KS 5T", "called_suit_ban", first_trick=True, called_card="QH")
    case(t, 10, "The ban never bars trumps: with a spade and a trump, the trump is led.", ["5.3"], tags, 5,
         "3S 5T", "", "5T", "called_suit_ban", **ban)
    case(t, 11, "Nothing but the called suit, the called card among it: any of them.", ["5.3"], tags, 5,
         "3S KS", "", "3S KS", "lead", **ban)
    case(t, 12, "The Excuse led and only the called suit held: the ban lifts for the second player.", ["5.3", "6"],
         [*tags, "excuse"], 5, "3S 4S", "EX", "3S 4S", "lead", **ban)
    case(t, 13, "A jack called (the taker holding every king, queen and knight): diamonds are barred.", ["5.1", "5.3"],
         tags, 5, "2D 5D 9C", "", "9C", "called_suit_ban", first_trick=True, called_card="JD")
    case(t, 14, "Variant called_suit_lead_ban false, the Excuse led: the second player may set the called suit.",
         ["11", "5.3"], [*tags, "excuse"], 5, "3S 2H", "EX", "3S 2H", "lead", **ban,
         rules={"called_suit_lead_ban": False})
    case(t, 15, "Variant called_suit_lead_ban set to its default (true): the ban applies.", ["11", "5.3"], tags, 5,
         "3S 2H", "", "2H", "called_suit_ban", **ban, rules={"called_suit_lead_ban": True})
# fmt: on
