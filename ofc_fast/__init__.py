"""ofc_fast: fast, exact Open Face Chinese poker evaluation and scoring.

Layers, each importing only those above it in this list (README's Design
table, checked by ``tests/test_layers.py``):

* ``errors`` - the exceptions (``OFCError`` and its subclasses)
* ``cards``  - card ids and the one card-text grammar (``parse_cards``, ``format_cards``)
* ``_eval``  - perfect-hash hand tables and batch kernels
  (``strength5``, ``strength3``, ``row_strength``)
* ``hands``  - categories and readable names
* ``rules``  - variants, royalties, scoring schemes, fantasyland rules as data
* ``_layout`` / ``layouts`` - finished layouts: fouls, royalties, fantasyland
* ``_score`` / ``scoring`` - pairwise, field and table scoring
* ``_fantasy`` / ``fantasyland`` - the exact fantasyland solver
* ``_play`` / ``_search`` / ``_rollout`` / ``rollouts`` - the play kernels' rules,
  the dead-hand search, batch Monte Carlo rollouts and move values
* ``_hand`` - the hand state machine (a C API for batch engines)
* ``moves`` / ``policies`` / ``engine`` - moves and views, players' policies,
  dealing, legal and automatic moves, matches
* ``solver`` - values of every move on common completions, ``SolverPolicy``
* ``records`` / ``report`` / ``io`` - recorded hands (``ofc-hand/1``) in JSON Lines,
  CSV, Parquet; summaries and plots
* ``dask``, ``cli`` - scale-out on a Dask cluster (optional extra), the
  ``ofc-fast`` command
"""
try:  # the first compiled module: missing in a source tree that was not built
    from ofc_fast._eval import N_JOINT, row_strength, strength3, strength5
except ModuleNotFoundError as _missing:
    import os as _os

    _here = _os.path.dirname(_os.path.abspath(__file__))
    _name = _missing.name or ""
    if not _name.startswith("ofc_fast.") or not _os.path.exists(
            _os.path.join(_here, _name.rsplit(".", 1)[1] + ".pyx")):
        raise
    raise ImportError(
        f"ofc_fast was imported from its source tree ({_here}), whose compiled extensions "
        f"are not built (No module named {_name!r}). Python looks in the current "
        "folder first, so a checkout shadows an installed ofc_fast. Either build the "
        "extensions in place with `pip install -e .` (a development install), or run "
        "Python from another folder to use the installed package.",
        name=_name) from None
from ofc_fast.cards import (
    EMPTY,
    RANKS,
    SUITS,
    card_id,
    format_card,
    format_cards,
    parse_card_text,
    parse_cards,
)
from ofc_fast.engine import (
    DISCARD,
    Game,
    GreedyPolicy,
    HandResult,
    HeuristicPolicy,
    Match,
    Move,
    MoveList,
    PlayerView,
    Policy,
    RacingPolicy,
    RandomPolicy,
    Turn,
)
from ofc_fast.errors import (
    ArgumentError,
    CardError,
    FileFormatError,
    LayoutError,
    MoveError,
    MoveIndexError,
    OFCError,
    OutputError,
    RecordError,
    RulesError,
    RulesTypeError,
    SameFileError,
    StateError,
)
from ofc_fast.fantasyland import (
    FantasylandBatch,
    FantasylandSolution,
    fantasyland_card_counts,
    repeat_first_value,
    solve_fantasyland,
    solve_fantasyland_batch,
)
from ofc_fast.hands import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    category,
    describe,
    describe_strength,
)
from ofc_fast.layouts import (
    Evaluation,
    evaluate,
    format_layout,
    foul_reason,
    layout_from_rows,
    parse_layout,
    parse_layouts,
)
from ofc_fast.rollouts import (
    RolloutEV,
    RolloutEvals,
    RolloutStats,
    completion,
    is_dead,
    rollout,
    rollout_ev,
)
from ofc_fast.rules import (
    MAX_ROYALTY,
    MAX_SCORING,
    REPEAT_RULES,
    ROYALTY_PRESETS,
    SCORING_PRESETS,
    VARIANTS,
    Royalties,
    Scoring,
    Variant,
    royalty_table,
    scoring_scheme,
    variant,
)
from ofc_fast.scoring import (
    PairResult,
    TableResult,
    score_field,
    score_matrix,
    score_pair,
    score_tables,
    settle,
)
from ofc_fast.solver import MoveValue, MoveValues, SolverPolicy, move_values

__version__ = "0.3.0.dev0"

__all__ = [
    "parse_card_text", "OFCError", "ArgumentError", "StateError", "MoveError", "MoveIndexError",
    "OutputError", "RecordError", "RulesTypeError", "SameFileError", "foul_reason",
    "FileFormatError", "MAX_ROYALTY", "MAX_SCORING", "EMPTY", "RANKS", "SUITS", "N_JOINT",
    "CardError", "card_id", "format_card",
    "format_cards", "parse_cards", "strength5", "strength3", "row_strength",
    "CATEGORY_NAMES", "HIGH_CARD", "PAIR", "TWO_PAIR", "TRIPS", "STRAIGHT", "FLUSH",
    "FULL_HOUSE", "QUADS", "STRAIGHT_FLUSH", "category", "describe", "describe_strength",
    "Evaluation", "LayoutError", "evaluate", "format_layout", "layout_from_rows", "parse_layout",
    "parse_layouts", "REPEAT_RULES", "ROYALTY_PRESETS", "SCORING_PRESETS", "VARIANTS",
    "Royalties", "RulesError", "Scoring", "Variant", "royalty_table", "scoring_scheme", "variant",
    "PairResult", "TableResult", "score_field", "score_matrix", "score_pair", "score_tables",
    "settle", "FantasylandBatch", "FantasylandSolution", "fantasyland_card_counts",
    "repeat_first_value", "solve_fantasyland", "solve_fantasyland_batch",
    "RolloutEV", "RolloutEvals", "RolloutStats", "completion", "is_dead", "rollout", "rollout_ev",
    "DISCARD", "Game", "HandResult", "HeuristicPolicy", "Match", "Move", "MoveList", "PlayerView",
    "Policy", "RandomPolicy", "GreedyPolicy", "RacingPolicy", "Turn", "MoveValue", "MoveValues",
    "SolverPolicy", "move_values",
]
