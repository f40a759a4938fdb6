"""The machine codes of a problem's ``errors``: what is wrong with a request, by kind.

A request that is not well formed is answered with a 4xx problem whose ``errors`` each carry
one of these codes and a JSON pointer; clients switch on the code, people read the message.
Codes of rule verdicts about well-formed requests are elsewhere (``service.rules.verdicts``).
"""

from __future__ import annotations

from service.rules.verdicts import Verdict


class FieldErrorCode(Verdict):
    """Why a request, or one of its fields, was refused."""

    # A field's value, by the kind of error.
    REQUIRED = "required", "A required field is missing (or a field another one needs)."
    NULL = "null", "The field may not be null."
    TYPE = "type", "A value of the wrong JSON type."
    ENUM = "enum", "A value outside the field's enum."
    RANGE = "range", "A number outside the field's range."
    LENGTH = "length", "A list longer or shorter than the field allows; its items are not looked at."
    INVALID = "invalid", "A value the field refuses for another reason."
    UNKNOWN_FIELD = "unknown_field", "A field the request does not have (a misspelt flag must not pass silently)."
    UNKNOWN_CARD = "unknown_card", "Not a card code (§1.5)."
    NOT_CALLABLE = "not_callable", "Only a king, queen, knight or jack can be called (§5.1)."
    HALF_POINT_GRID = "half_point_grid", "Card points go by half points."
    # Across fields.
    DUPLICATE_CARD = "duplicate_card", "A card listed twice in the request."
    MISSING_CARD = "missing_card", "A deck without one of the 78 cards (§2.1)."
    CARD_IN_HAND_AND_TRICK = "card_in_hand_and_trick", "A card both in the hand and in the trick."
    HAND_TOO_LARGE = "hand_too_large", "More cards in hand than a hand holds at this table (§2)."
    TRICK_FULL = "trick_full", "The trick already holds a card from every seat."
    TRICK_TOO_LONG = "trick_too_long", "More cards in the trick than players."
    SEAT_OUT_OF_RANGE = "seat_out_of_range", "A seat beyond the number of players."
    HANDS_COUNT = "hands_count", "Not one hand per seat."
    CALLED_CARD_NOT_ALLOWED = "called_card_not_allowed", "A called card below five players (§5)."
    PARTNER_NOT_ALLOWED = "partner_not_allowed", "A partner below five players (§5)."
    POINTS_OUDLERS_MISMATCH = "points_oudlers_mismatch", "Card points the oudlers held rule out (§1.4, §9)."
    POINTS_CHELEM_MISMATCH = "points_chelem_mismatch", "Card points a chelem rules out (§9.6, §12)."
    OUDLERS_CHELEM_MISMATCH = "oudlers_chelem_mismatch", "Oudlers a chelem rules out (§9.6, §12)."
    TOO_MANY_TRUMPS_SHOWN = "too_many_trumps_shown", "Poignées showing more trumps than the deck holds."
    POUSSE_NOT_ENABLED = "pousse_not_enabled", "`pousse` without the `pousse_alias` variant (§3.4)."
    DECK_AND_SEED = "deck_and_seed", "A deal of the cards given both a deck and a seed: one or the other."
    PACKET_SIZE = "packet_size", "Packets that do not deal the table's hands whole: 4 only at three players (§2.1)."
    DOG_POSITIONS_COUNT = "dog_positions_count", "Not one dog position per card of the dog (§2)."
    DUPLICATE_POSITION = "duplicate_position", "A deck position given twice for the dog."
    DOG_FIRST_OR_LAST_CARD = "dog_first_or_last_card", "The deck's first or last card put in the dog (§2.1)."
    DOG_INSIDE_PACKET = "dog_inside_packet", "A dog card put aside in the middle of a packet (§2.1)."
    NAMES_COUNT = "names_count", "A game's sheet: not one name per seat."
    DRAW_COUNT = "draw_count", "A game's sheet: not one card drawn per seat (§15.1)."
    ONE_ENTRY = "one_entry", "A game's deal with not exactly one of `summary`, `record`, `not_played`."
    TABLE_SIZE = (
        "table_size",
        "A game's deal for another number of players than the game's: a change of players starts a new sheet (§15).",
    )
    UNSCORED_RECORD = "unscored_record", "A game's record with no row: unfinished, or faulty before its end (§14)."
    DUPLICATE_PLAYER = (
        "duplicate_player",
        "A tournament's player number given to two players, or a player listed twice among those seated (§16.2, "
        "§16.5), or at two orientations of a duplicate play (§17.9).",
    )
    SEATS_COUNT = (
        "seats_count",
        "A tournament's table with other than 3, 4 or 5 seats, or a fifth seat without the four orientations (§16.2).",
    )
    SEAT_NOT_AT_TABLE = (
        "seat_not_at_table",
        "A scorecard's marks, bilan, taker or partner at a seat the card does not have, or a row of marks without "
        "a mark for each of its seats (§16.2).",
    )
    DEALS_NOT_RETURNED = "deals_not_returned", "A scorecard said not returned that gives deals (§16.3)."
    NOT_A_PLAYER = (
        "not_a_player",
        "A seating, an adjustment or a fixed player naming a player who is not among the tournament's `players` "
        "(§16.2, §16.5).",
    )
    TABLE_SEATED_TWICE = "table_seated_twice", "A tournament's seating with one table twice in one position (§16.2)."
    # A tournament's seating (§16.5).
    NO_TABLES = (
        "no_tables",
        "A tournament's seating: no tables of 3 and 4 seat this many players (5 without tables of 5).",
    )
    POSITIONS_PLAYED = (
        "positions_played",
        "A tournament's seating: more positions played than the tournament has, or none left to seat.",
    )
    SAME_PLAYER = "same_player", "A tournament's seating: a forbidden pair of one player twice."
    FIXED_TABLE = "fixed_table", "A tournament's seating: a player fixed to a table beyond the tables of a position."
    # A duplicate tournament (§17).
    DECIMAL_PLACES = "decimal_places", "A number with more decimals than the field takes."
    FIGURE_OR_SUMMARY = (
        "figure_or_summary",
        "A duplicate play with both or neither of a figure (`score`) and a summary (§17.3).",
    )
    ETUI_LISTED_TWICE = "etui_listed_twice", "A duplicate session's étui listed twice (§17.9)."
    ETUI_NOT_LISTED = "etui_not_listed", "A duplicate play of an étui its session does not list (§17.9)."
    TRIPLETTE_SPLIT = (
        "triplette_split",
        "A triplettes play whose North and South (or East and West) are not one triplette (§17.5).",
    )
    ADJUSTMENT_NOT_PLAYED = (
        "adjustment_not_played",
        "A referee's adjustment about an étui nobody played, or an entrant who did not play it (§17.9).",
    )
    MARK_ON_ANNULLED = "mark_on_annulled", "An adjusted mark on an étui the session annuls (§17.9)."
    SAME_TEAM = "same_team", "A quadrette opposed to itself, or a team match of one team twice (§17.8)."
    UNKNOWN_TEAM = "unknown_team", "A penalty for a quadrette that played no deal (§17.9)."
    NOT_FOR_FORM = "not_for_form", "A part of a duplicate request that its `form` does not read (§17)."
    # The body.
    EMPTY_BODY = "empty_body", "No body: send a JSON object."
    MALFORMED_JSON = "malformed_json", "The body is not valid JSON (or has duplicate keys, NaN, too deep nesting)."
    UNREADABLE_BODY = "unreadable_body", "The body could not be read (a broken chunked framing, a client gone)."
    TRUNCATED_BODY = "truncated_body", "The body is shorter than its Content-Length."
    BODY_TIMEOUT = "body_timeout", "The body stopped arriving (408); the connection is closed."
    BODY_TOO_LARGE = (
        "body_too_large",
        "The body is over the operation's limit (413): 64 KiB, 1 MiB for a tournament's standings and for a duplicate "
        "tournament's movement and standings, 256 KiB for a tournament's seating, 4 MiB for a JSON batch.",
    )
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", "The body is not of a media type the operation takes (415)."
    # A line of an NDJSON batch (a problem item; the other lines are answered).
    EMPTY_LINE = "empty_line", "An empty line in an NDJSON batch."
    LINE_TOO_LONG = "line_too_long", "A line of an NDJSON batch over 64 KiB."
    TOO_MANY_LINES = "too_many_lines", "An NDJSON batch over 100 000 lines: the lines from here were not evaluated."
    DRAINING = "draining", "The instance began to shut down: the lines from here were not evaluated; send them again."
    # A query parameter.
    INVALID_PARAMETER = "invalid_parameter", "A query parameter with a value the operation does not take (400)."
    # The request as HTTP.
    NOT_FOUND = "not_found", "No operation at this path (404)."
    METHOD_NOT_ALLOWED = "method_not_allowed", "The path does not take this method (405, with Allow)."
    BAD_REQUEST = "bad_request", "A request the service cannot take (400)."
    CLIENT_ERROR = "client_error", "Another fault of the request (4xx)."
    MALFORMED_HTTP = "malformed_http", "Not valid HTTP (400)."
    URI_TOO_LONG = "uri_too_long", "The request line is too long (414)."
    HEADERS_TOO_LARGE = "headers_too_large", "Too many or too large headers (431)."
    EXPECTATION_FAILED = "expectation_failed", "An Expect header the service does not meet (417)."
    FORBIDDEN = "forbidden", "A request the service refuses to proxy (403)."
    UNSUPPORTED_TRANSFER_CODING = "unsupported_transfer_coding", "A transfer coding other than chunked (400)."
    BAD_CHUNKED_BODY = "bad_chunked_body", "A broken chunked framing (400)."
    HEADER_TIMEOUT = "header_timeout", "The headers did not arrive in time (408); the connection is closed."
    # The instance under load.
    OVERLOADED = (
        "overloaded",
        "The instance is overloaded and did not serve the request (503): send it again after `Retry-After` "
        "seconds, better to another instance.",
    )
