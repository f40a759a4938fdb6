"""The verdict vocabulary: every machine code the rules core answers with (rules.md §13).

Each code carries its meaning, which the contract (openapi.yaml) and the metrics repeat from
here, so that a code is named and explained in one place. A *violation* is a fault of a deal
record, reported in a 200 answer; nothing else is called a fault or a violation.

Words for people are not written here: a verdict carries a :class:`~service.messages.Message`,
a catalog key (starting with its code) and the specifics (the card, the seat, the trump to
beat). The catalogs of :mod:`service.texts` say it in the reader's language, so the core stays
free of languages and files.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Self

from ..messages import Message
from .cards import Card, CardMask
from .frozen import copied_by_constructor


class Verdict(StrEnum):
    """A machine code with its meaning (``description``), written to the wire as its value."""

    description: str

    def __new__(cls, value: str, description: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.description = description
        return member


class LegalReason(Verdict):
    """Which rule of §6 decided the legal cards."""

    LEAD = "lead", "No suit led yet (leading, or only the Excuse played): any card (§6.2)."
    CALLED_SUIT_BAN = (
        "called_suit_ban",
        "Opening lead at five players: no card of the called suit but the called card, while other cards "
        "are held (§5).",
    )
    FOLLOW = "follow", "The player holds the led plain suit: any card of it, or the Excuse (§6.3; fournir)."
    TRUMP = "trump", "Void in the led suit, no trump in the trick yet: any trump, or the Excuse (§6.4; couper)."
    OVERTRUMP = (
        "overtrump",
        "A trump higher than the highest in the trick, even over a partner, or the Excuse (§6.4; surcouper).",
    )
    UNDERTRUMP = "undertrump", "Trumps, none high enough: any trump, or the Excuse (§6.4; sous-couper)."
    DISCARD = "discard", "Neither the led suit nor a trump: any card (§6.5; se défausser)."


class ViolationCode(Verdict):
    """A fault of a deal record: where the deal broke a rule."""

    HAND_SIZE = "hand_size", "A hand or the dog was dealt the wrong number of cards for the table (§2)."
    DUPLICATE_CARD = "duplicate_card", "A card is dealt twice, or played twice (§1)."
    PETIT_SEC = "petit_sec", "A seat was dealt a petit sec, yet the deal went on instead of being dealt again (§3)."
    BID_ORDER = (
        "bid_order",
        "The bids do not give one bid per seat, or make another taker or contract than the record says (§3).",
    )
    BID_NOT_HIGHER = "bid_not_higher", "A bid is not higher than a bid already made (§3)."
    BAD_CALL = (
        "bad_call",
        "Five players: the taker called a queen, knight or jack without holding every card of each higher rank (§5).",
    )
    DISCARD_SIZE = (
        "discard_size",
        "The discard has the wrong number of cards, or is made in a garde sans or garde contre (§4); a discard "
        "left out is no fault (§12).",
    )
    DISCARD_NOT_HELD = "discard_not_held", "A discarded card was neither in the taker's hand nor in the dog (§4)."
    DISCARD_KING_OR_BOUT = "discard_king_or_bout", "A king or an oudler was discarded (§4)."
    DISCARD_TRUMP = "discard_trump", "More trumps were discarded than the lack of other cards forces (§4)."
    POIGNEE_SIZE = "poignee_size", "A poignée does not show exactly the number of trumps of a tier (§9.5)."
    POIGNEE_CARD = "poignee_card", "A poignée shows a card that is not a trump the seat holds (§9.5)."
    POIGNEE_EXCUSE = (
        "poignee_excuse",
        "A poignée shows the Excuse while the seat holds a trump it does not show (§9.5).",
    )
    POIGNEE_DUPLICATE = "poignee_duplicate", "A seat shows two poignées, or a card twice in one (§9.5)."
    POIGNEE_LATE = "poignee_late", "A poignée shown after its owner's first card (§9.5)."
    WRONG_LEADER = (
        "wrong_leader",
        "A trick was led by another seat than the one whose turn it was: at the opening trick, or after a trick "
        "whose winner the record contradicts (§2, §12).",
    )
    CARD_NOT_IN_HAND = "card_not_in_hand", "A seat played a card it does not hold (§2, §6)."
    CALLED_SUIT_LEAD = "called_suit_lead", "Five players: the opening lead is in the called suit (§5)."
    RENOUNCE = (
        "renounce",
        "A seat did not follow the led plain suit it holds, or did not play a trump on a trump lead while "
        "holding one (§6.3, §6.4).",
    )
    MUST_TRUMP = "must_trump", "A seat void in the led suit did not trump while holding a trump (§6.4)."
    MUST_OVERTRUMP = (
        "must_overtrump",
        "A seat played a trump below the highest in the trick while holding a higher one (§6.4).",
    )
    PLAYS_LENGTH = (
        "plays_length",
        "More cards were played than a deal has, or cards were played in a deal that had to be dealt again (§2, §3).",
    )


class RedealReason(Verdict):
    """Why the cards are dealt again."""

    ALL_PASSED = "all_passed", "Every seat passed (§3)."
    PETIT_SEC = "petit_sec", "A seat was dealt a petit sec (§3)."


class Decision(Verdict):
    """What the ruling does with the deal (§14.1)."""

    COUNTED = "counted", "The deal is scored as the cards fell (a poignée's bonus dropped where §14.6 says)."
    VOID = "void", "The deal is void: every seat scores 0 (annulée)."
    REDEAL = "redeal", "A fault of the deal itself: the same dealer deals again, every seat scores 0 (§14.5)."


class RulingReason(Verdict):
    """The row of §14's decision table a ruling rests on."""

    COVERED_LEAD = "covered_lead", "A card led out of turn, covered by the other side: no fault (§14.3)."
    EXPOSED_CARD = (
        "exposed_card",
        "A card led out of turn and not covered, neither an oudler nor a king, or led by the taker: "
        "a correctable fault, the deal counted (§14.3).",
    )
    EXPOSED_IMPORTANT_CARD = (
        "exposed_important_card",
        "An oudler or a king led out of turn by another seat than the taker, and not covered (§14.3).",
    )
    COMPLETED_RENOUNCE = (
        "completed_renounce",
        "A card played against §5.3 or §6, or a card the seat did not hold: completed once the next card fell (§14.2).",
    )
    WRONG_CARD_COUNT = "wrong_card_count", "Cards played twice or beyond the deal's count (§14.2)."
    AUCTION_FAULT = "auction_fault", "A fault of the bids or of the call (§14.2)."
    DISCARD_FAULT = "discard_fault", "A fault of the discard (a miscard): the attack at fault (§14.4)."
    DEALING_FAULT = (
        "dealing_fault",
        "A fault of the deal itself (a hand of the wrong size, a card dealt twice, a petit sec played) (§14.5).",
    )
    DEALING_ERROR_DISREGARDED = (
        "dealing_error_disregarded",
        "A hand of the wrong size or a card dealt twice, disregarded under `deal_errors_after_contract: "
        "disregarded`: no side at fault, the deal scored as played (§14.5).",
    )
    BOTH_SIDES_AT_FAULT = "both_sides_at_fault", "Root faults on both sides: the deal is void (§14.1)."
    POIGNEE_RECTIFIABLE = (
        "poignee_rectifiable",
        "A poignée shown incomplete, or with a card the seat lacks, that the seat's trumps complete: counted (§14.6).",
    )
    POIGNEE_UNRECTIFIABLE = (
        "poignee_unrectifiable",
        "A poignée shown incomplete that the seat's trumps cannot complete: not counted; shown by a "
        "defender, void if the taker lost (§14.6).",
    )
    POIGNEE_TOO_MANY = (
        "poignee_too_many",
        "A poignée shown with more trumps than its tier: counted at that tier; shown by a defender, void if "
        "the taker lost (§14.6).",
    )
    POIGNEE_BEFORE_COVERED = (
        "poignee_before_covered",
        "A poignée shown just after its owner's first card, before the next card covered it: counted (§14.6).",
    )
    POIGNEE_LATE = (
        "poignee_late",
        "A poignée shown at another moment: by the taker, not counted if he won; by a defender, void if the "
        "taker lost (§14.6).",
    )
    POIGNEE_EXCUSE = (
        "poignee_excuse",
        "The Excuse shown in place of a trump the seat kept: void if the side at fault won, else counted (§14.6).",
    )
    POIGNEE_SECOND = (
        "poignee_second",
        "A second poignée from one seat, or a card shown twice: the second not counted (§14.6).",
    )


class Unchecked(Verdict):
    """A part of the record that the evaluation needed and the record leaves out (rules.md §12,
    "What a record leaves out"): a check it could not make, or the one reading it took that
    charges nobody. Missing data is never a fault."""

    DEALT_HANDS = (
        "dealt_hands",
        "No `hands`: the deal itself (hand sizes, cards dealt twice, a petit sec, the rank of a called card) is not "
        "checked, and each seat's hand is the cards it plays; in a deal in progress a card is judged only against "
        "the cards its seat plays later.",
    )
    DOG = (
        "dog",
        "No `dog`, and hands with a fault of the deal, so the dog cannot be told: its size is not checked, and the "
        "discard is checked against the cards no hand holds.",
    )
    DISCARD = (
        "discard",
        "No `discard`, and none can be told (a deal in progress, or cards left unplayed that cannot be it): it is "
        "not checked, and the taker's hand is the cards he plays.",
    )
    AUCTION = "auction", "No `bids`: the auction is not checked; the contract and the taker are as given."
    CHELEM_ANNOUNCEMENT = (
        "chelem_announcement",
        "No `chelem_announced`, read one way: announced when the taker led the first trick out of turn, which "
        "only an announced chelem lets him do (§9.6); not announced where nothing tells (the taker due to lead "
        "anyway, no card played, no hands); the message says which.",
    )


@dataclass(frozen=True, slots=True)
class NotChecked:
    """A part of the record left out, and what the evaluation did without it."""

    code: Unchecked
    message: Message


@dataclass(frozen=True, slots=True)
class Violation:
    """One fault of a deal record, located at a trick and seat where that applies."""

    code: ViolationCode
    message: Message
    trick: int | None = None
    seat: int | None = None
    card: Card | None = None
    legal: CardMask | None = None
    """For a card played illegally: the cards that seat could legally play."""
    caused_by: int | None = None
    """``None`` for a root fault; else the index, in the same list of violations, of the
    earlier root fault this one follows from (rules.md §12)."""


copied_by_constructor(Violation, NotChecked)


class Anomaly(Verdict):
    """A scored error the control table finds in a tournament's scorecards (§16.3): reported at its
    place in the request, never corrected."""

    DEAL_NOT_ZERO_SUM = (
        "deal_not_zero_sum",
        "A deal's marks, as written on the card, do not sum to zero (*FFT Code*: the total scores do not equal "
        "zero; §16.3).",
    )
    BILAN_MISMATCH = "bilan_mismatch", "A bilan written on the card is not the sum of that player's marks (§16.3)."
    IMPOSSIBLE_MARKS = (
        "impossible_marks",
        "A deal's marks sum to zero but no deal gives them: the defenders' marks unequal, or the taker's not twice "
        "theirs at three players, three times at four, at five twice with the partner's once or four times alone, "
        "or not at the taker written (§9.3, §16.3).",
    )
    MARKS_CONTRADICT_DEAL = (
        "marks_contradict_deal",
        "A deal's written marks, taker or contract differ from what its summary or record gives (§16.3).",
    )
    TABLE_MISSING = "table_missing", "The card has no table number (*FFT Code*; §16.3)."
    PLAYER_MISSING = "player_missing", "A seat of the card has no player's name and number (*FFT Code*; §16.3)."
    CARD_NOT_RETURNED = (
        "card_not_returned",
        "A table's card did not reach the control table: `returned: false`, or a table of the `seating` with no "
        "card (*FFT Code*; §16.3).",
    )
    PLAYER_TWICE = "player_twice", "A player at two tables of one position, or at two seats of one card (§16.3)."
    UNKNOWN_PLAYER = "unknown_player", "A card names a player who is not among the tournament's `players` (§16.3)."
    DEAL_COUNT = "deal_count", "A card's played deals are not the plan's number of deals per position (§16.1, §16.3)."
    POSITION_NOT_IN_PLAN = "position_not_in_plan", "A card's position is beyond the plan's positions (§16.1, §16.3)."
    DUPLICATE_TABLE = "duplicate_table", "Two cards for one table in one position (§16.3)."
    TEAMMATES_TOGETHER = "teammates_together", "Teammates at one table: teammates never meet (§16.3, §16.4)."
    WRONG_TABLE_NUMBER = (
        "wrong_table_number",
        "A card's table number is not the table the `seating` put its players at (§16.3).",
    )
    PLAYERS_SWAPPED = (
        "players_swapped",
        "Two players each on the card of the table the `seating` gave the other (§16.3).",
    )
    NOT_SEATED_HERE = (
        "not_seated_here",
        "A card names a player the `seating` put at another table of the position, or at none (§16.3).",
    )
    SEATED_ABSENT = "seated_absent", "A player the `seating` put at a table is on no card of the position (§16.3)."


class SeatingFault(Verdict):
    """A rule of a tournament's seating that a position breaks (rules.md §16.5), by the rules'
    priority: the first five are faults of the tables themselves."""

    SEATED_TWICE = "seated_twice", "A player sits at two seats of one position (§16.5, rule 1)."
    MISSING_PLAYER = "missing_player", "A player of the tournament sits at no table of a position (§16.5, rule 1)."
    UNKNOWN_PLAYER = "unknown_player", "A seat holds someone who is not among the tournament's players (§16.5, rule 1)."
    DUPLICATE_TABLE = "duplicate_table", "Two tables of one position have the same number (§16.5)."
    TABLE_SIZE = (
        "table_size",
        "A table seats other than 3 or 4 players (5 only where the tournament allows tables of 5) (§16.5, rule 2).",
    )
    TABLE_SIZES = (
        "table_sizes",
        "A position has more tables of 3 (or of 5) than its count of players needs: tables of 4, and the fewest "
        "tables of 3 (§16.5, rule 2).",
    )
    FORBIDDEN_PAIR = "forbidden_pair", "Two players who may not meet (teammates) sit at one table (§16.5, rule 3)."
    REPEAT_MEETING = "repeat_meeting", "Two players meet again: they met in a position before (§16.5, rule 4)."
    UNEVEN_THREES = (
        "uneven_threes",
        "A player sits at a table of 3 once more than another who has sat at fewer: the tables of 3 are not "
        "spread evenly (§16.5, rule 5).",
    )
    UNEVEN_FIVES = (
        "uneven_fives",
        "A player sits at a table of 5 once more than another who has sat at fewer: the tables of 5 are not "
        "spread evenly (§16.5, rule 5).",
    )
    FIXED_ELSEWHERE = "fixed_elsewhere", "A player fixed to a table sits at another (§16.5, rule 6)."


class DuplicateFault(Verdict):
    """What the control table of a duplicate session finds in its *fiches ambulantes* (rules.md
    §17.9): reported at its play, never corrected."""

    IMPOSSIBLE_SCORE = (
        "impossible_score",
        "A figure no Garde at four players gives: odd, or beyond what the margin and the bonuses reach (§17.3).",
    )
    ETUI_TWICE_FOR_PLAYER = (
        "etui_twice_for_player",
        "A player (or a triplette) plays an étui a second time: deals and players never meet twice (§17.9).",
    )
    ETUI_TWICE_IN_POSITION = (
        "etui_twice_in_position",
        "An étui played at a second table in one position: one étui is at one table at a time (§17.9).",
    )
    ETUI_PLAYED_ONCE = "etui_played_once", "An étui played at one table only: it has no topage (§17.4)."
    ORIENTATION_CHANGED = (
        "orientation_changed",
        "A player at another orientation than at his first play: players never change orientation (§17.9).",
    )
    NOT_IN_MOVEMENT = "not_in_movement", "A play at a position and table the movement does not have (§17.9)."
    PLAYERS_NOT_AS_MOVEMENT = (
        "players_not_as_movement",
        "A play's players are not those the movement seats at its table and position (§17.9).",
    )
    ETUI_NOT_AS_MOVEMENT = (
        "etui_not_as_movement",
        "A play's étui is not one the movement gives its table at its position (§17.9).",
    )
    PLAY_MISSING = "play_missing", "An étui the movement gives a table at a position has no play (§17.9)."


class DuplicateMovementFault(Verdict):
    """A rule of a duplicate tournament's movement that its sittings break (rules.md §17.1–17.2):
    players change tables but never orientation, and deals and players never meet twice (p. 13)."""

    POSITION_NUMBERS = "position_numbers", "The positions are not numbered 1, 2, … without a gap (§17.1)."
    TABLE_TWICE = "table_twice", "Two sittings of one position have the same table number (§17.1)."
    MISSING_PLAYER = "missing_player", "A table has an empty seat, or fewer or more than four players (§17.1)."
    UNKNOWN_PLAYER = "unknown_player", "A seat holds someone who is not among the tournament's players (§17.1)."
    ABSENT_PLAYER = "absent_player", "A player of the tournament sits at no table of a position (§17.1)."
    PLAYER_TWICE = "player_twice", "A player sits at two seats of one position (§17.1)."
    ORIENTATION_CHANGED = (
        "orientation_changed",
        "A player sits at another orientation than his own: players never change orientation (§17.1, p. 13).",
    )
    NO_ETUI = "no_etui", "A table plays no étui at a position (§17.1)."
    ETUI_TWICE = "etui_twice", "An étui is at two tables, or twice at one table, in one position (§17.1)."
    ETUI_REPLAYED = (
        "etui_replayed",
        "A player plays an étui he has played before: deals and players never meet twice (§17.1, p. 13).",
    )
    UNKNOWN_ETUI = "unknown_etui", "A table plays an étui no label names (§17.2)."
    BAD_LABEL = (
        "bad_label",
        "An étui labelled twice; in the core alone, also a label whose taker or dealer is no orientation (a request "
        "with one is refused first) (§17.2).",
    )
