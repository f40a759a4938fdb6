"""What players call the wire's values, in French and in English: the words a refusal's hint
reads as the value they name (:mod:`.hints`).

Data only, each word stated once and written as players write it (accents, spaces,
apostrophes): a hint compares words by their plain spelling (lower case, no accents, letters
and digits only), so ``Garde-Sans``, ``garde sans`` and ``GARDE_SANS`` are one word, and so are
``défense`` and ``defense``. A word names one value of its enum; the value's own name needs no
entry.
"""

from __future__ import annotations

from typing import Any

REDEAL = ("redonne", "redonner", "on redonne", "à redonner", "redistribuer", "deal again", "dealt again", "misdeal")
"""A deal dealt again, by the same dealer (rules.md §3, §14.5)."""
VOID = ("nulle", "donne nulle", "annulée", "annuler", "cancelled", "canceled", "null and void")
"""A deal that counts for nothing (rules.md §14)."""

CONTRACTS: dict[Any, tuple[str, ...]] = {
    "prise": ("petite", "take", "small", "je prends", "prends"),
    "garde": ("guard", "pousse"),
    "garde_sans": ("garde sans le chien", "guard without", "guard without the kitty", "guard without the dog"),
    "garde_contre": ("garde contre le chien", "guard against", "guard against the kitty", "guard against the dog"),
    "pousse": ("push",),
}
"""The contracts (rules.md §3.2): the old French name of prise, the English ones; ``pousse``, the
variant's name of garde, is garde where the request does not take it."""

SIDES: dict[Any, tuple[str, ...]] = {
    "attack": ("attaque", "attaquant", "attaquants", "attacker", "attackers", "preneur", "taker", "le preneur"),
    "defence": ("défense", "la défense", "défenseur", "défenseurs", "defender", "defenders"),
}
"""The two sides of a deal: the taker's (and partner's), and the others."""

NUMBERS: dict[Any, tuple[str, ...]] = {
    1: ("one", "un", "une", "un par un", "une à une", "one by one"),
    3: ("three", "trois", "par trois", "three by three"),
    4: ("four", "quatre", "par quatre", "four by four"),
    5: ("five", "cinq"),
}
"""Numbers in words, for the enums of numbers (players, packets)."""

ENUM_WORDS: dict[str, dict[Any, tuple[str, ...]]] = {
    "Players": {n: NUMBERS[n] for n in (3, 4, 5)},
    "Packet": {n: NUMBERS[n] for n in (1, 3, 4)},
    "Contract": CONTRACTS,
    "Bid": {"pass": ("passe", "je passe", "pas", "passer", "no bid", "passed"), **CONTRACTS},
    "Side": SIDES,
    "AtFault": {**SIDES, "both": ("les deux", "les deux camps", "tous", "both sides", "everyone")},
    "PoigneeSize": {
        "simple": ("single", "poignée simple", "simple poignée", "single poignée", "single handful"),
        "double": ("poignée double", "double poignée", "double handful"),
        "triple": ("poignée triple", "triple poignée", "triple handful"),
    },
    "ExcuseLastTrick": {
        "changes_side": ("change de camp", "changes camp", "change side", "other side", "autre camp", "adversaire"),
        "trick_winner": ("gagnant du pli", "au gagnant du pli", "gagnant", "winner", "trick's winner", "le gagnant"),
    },
    "FirstLead": {
        "after_dealer": (
            "donneur",
            "dealer",
            "après le donneur",
            "à droite du donneur",
            "dealer right",
            "dealer's right",
        ),
        "after_taker": ("preneur", "taker", "après le preneur", "à droite du preneur", "taker right", "taker's right"),
    },
    "DealErrors": {
        "redeal": REDEAL,
        "disregarded": ("ignorée", "ignorer", "ignore", "ignored", "disregard", "scored as played", "comme jouée"),
    },
    "NotPlayed": {"redeal": REDEAL, "void": VOID},
    "Decision": {
        "counted": ("comptée", "compter", "compte", "count", "scored", "jouée", "as played", "comme jouée"),
        "void": VOID,
        "redeal": REDEAL,
    },
    "ViolationCode": {
        "hand_size": ("mauvaise distribution", "maldonne", "fausse donne", "wrong hand size"),
        "duplicate_card": ("carte en double", "doublon", "duplicate", "card twice"),
        "petit_sec": ("petit seul", "lone petit", "bare petit", "singleton petit"),
        "bid_order": ("ordre des enchères", "enchère hors tour", "bidding order", "bid out of turn"),
        "bid_not_higher": ("enchère trop basse", "enchère insuffisante", "bid too low", "insufficient bid"),
        "bad_call": ("mauvais appel", "faux appel", "appel interdit", "wrong call", "illegal call"),
        "discard_size": ("taille de l'écart", "écart incomplet", "wrong discard size", "discard count"),
        "discard_not_held": ("carte écartée non tenue", "écart d'une carte absente", "discarded card not held"),
        "discard_king_or_bout": ("roi à l'écart", "bout à l'écart", "roi écarté", "king discarded", "bout discarded"),
        "discard_trump": ("atout à l'écart", "atout écarté", "trump discarded", "trumps discarded"),
        "poignee_size": ("poignée incomplète", "mauvaise poignée", "wrong poignée size"),
        "poignee_card": ("carte de poignée", "poignée fausse", "wrong poignée card"),
        "poignee_excuse": ("excuse dans la poignée", "excuse in poignée", "poignée avec l'excuse"),
        "poignee_duplicate": ("poignée en double", "deux poignées", "poignée twice", "two poignées"),
        "poignee_late": ("poignée tardive", "poignée en retard", "late poignée"),
        "wrong_leader": ("entame hors tour", "mauvaise entame", "wrong lead", "lead out of turn"),
        "card_not_in_hand": ("carte absente", "carte non tenue", "card not held", "not in hand"),
        "called_suit_lead": ("entame dans la couleur appelée", "couleur appelée", "called suit led"),
        "renounce": ("renonce", "revoke", "renege"),
        "must_trump": ("pas coupé", "refus de couper", "couper", "failure to trump", "did not trump"),
        "must_overtrump": ("sous-coupe", "sous-couper", "pas monté", "refus de monter", "surcouper", "undertrump"),
        "plays_length": ("trop de cartes jouées", "too many plays", "too many cards played"),
    },
    "Orientation": {
        "north": ("nord", "n"),
        "west": ("ouest", "o", "w"),
        "south": ("sud", "s"),
        "east": ("est", "e"),
        "fifth": ("cinquième", "cinquième joueur", "5e", "5th", "fifth player"),
    },
    "TieBreak": {
        "none": ("aucun", "aucune", "sans", "non", "no", "ex aequo", "shared", "partagé"),
        "best_position": ("best", "meilleure position", "meilleure", "meilleur bilan", "best bilan"),
        "positive_positions": ("positive", "positives", "positions positives", "bilans positifs", "most positive"),
    },
    "SeatPositions": {
        "next": ("suivante", "prochaine", "la suivante", "position suivante", "next position"),
        "remaining": ("all", "toutes", "tout", "tous", "reste", "le reste", "restantes", "rest", "every", "the rest"),
        "none": ("aucune", "check", "vérifier", "contrôle", "contrôler", "verify"),
    },
    "DuplicateForm": {
        "individual": ("individuel", "tournoi individuel", "solo", "singles"),
        "triplettes": ("triplette", "triplets", "teams of three", "équipes de trois"),
        "quadrettes": ("quadrette", "quadruplets", "teams of four", "équipes de quatre"),
        "team_match": ("match par équipes", "rencontre par équipes", "match", "teams match"),
    },
    "DuplicateOrientation": {
        "north": ("nord", "n"),
        "west": ("ouest", "o", "w"),
        "south": ("sud", "s"),
        "east": ("est", "e"),
    },
    "TeamContract": {key: CONTRACTS[key] for key in ("garde", "garde_sans", "garde_contre")},
    "DuplicateSheet": {
        "general": ("général", "classement général", "overall", "ranking"),
        "alterne": ("alterné", "classement alterné", "alternate", "alternating"),
        "feuilles": ("feuilles de route", "feuille de route", "routes", "scorecards", "feuille"),
    },
    "Detail": {
        "full": ("complet", "complète", "tout", "all", "whole", "entier"),
        "summary": ("résumé", "digest", "court", "brief", "short", "synthèse"),
    },
}
"""By enum (the name of its schema in the contract), each value's other names: every enum a
request carries, each of its values (a test walks the requests' schemas for them)."""

RANK_WORDS: dict[str, tuple[str, ...]] = {
    "1": ("a", "ace", "as"),
    "2": ("two", "deux"),
    "3": ("three", "trois"),
    "4": ("four", "quatre"),
    "5": ("five", "cinq"),
    "6": ("six",),
    "7": ("seven", "sept"),
    "8": ("eight", "huit"),
    "9": ("nine", "neuf"),
    "10": ("t", "ten", "dix"),
    "J": ("jack", "v", "valet"),
    "N": ("kn", "c", "cv", "knight", "cavalier"),
    "Q": ("queen", "d", "dame"),
    "K": ("king", "r", "roi"),
}
"""Each rank of a plain suit (rules.md §1.5: its code, which needs no entry), in letters and words."""

SUIT_WORDS: dict[str, tuple[str, ...]] = {
    "S": ("spade", "spades", "pique", "piques", "p"),
    "H": ("heart", "hearts", "cœur", "cœurs"),
    "D": ("diamond", "diamonds", "carreau", "carreaux"),
    "C": ("club", "clubs", "trèfle", "trèfles"),
}
"""Each plain suit (its code needs no entry), in letters and words."""

OF = ("of", "de", "d'")
"""Between a rank and its suit: "king of spades", « roi de pique », « 21 d'atout »."""

TRUMP_WORDS = ("t", "a", "atout", "atouts", "trump", "trumps")
"""What marks a number as a trump's, before or after it: ``T21``, ``21A``, « atout 21 »."""

EXCUSE_WORDS = ("e", "x", "exc", "excuse", "fool")
"""The Excuse (its code, ``EX``, needs no entry)."""
PETIT_WORDS = ("p", "petit", "petit atout", "little one")
"""The Petit, the 1 of trumps (``1T``)."""

ARTICLES = ("le", "la", "l'", "the")
"""What may stand before a card's name: « le roi de cœur », "the king of hearts"."""
