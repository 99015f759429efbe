"""Published joker cases of the engines RULES.md section 12 names, with the
options of ofc_fast that match each engine (docs/jokers.md):

* YutaUra/ofc-engine: ``joker_cards="board"``, ``joker_objective="royalties"``
  (its "used cards" list aside: none here), progressive fantasyland;
* giovinco0807/pineapple (``ofc_core``): ``joker_cards="row"``,
  ``joker_objective="strength"``, ``joker_top_natural=True``, progressive
  entry (``check_fl_entry``: QQ 14, KK 15, AA 16, trips 17);
* victorywys/OFC_Solver: ``joker_cards="row"``, ``joker_objective="royalties"``.

Each case: its source (repository, path, test name), the variant and options,
the layout (``Xj`` as the engines write it, or X1/X2; ``jokers`` where the
variant deals more than the layout holds), and what the source
asserts: the foul flag, the category of some rows (``rows``: top, middle,
bottom; None where the source says nothing), and where it says so the
royalties of a row, the fantasyland cards and the card a joker stands for.
Single-row tests of a source (a row resolved alone) are played as the bottom
row of a layout whose other rows stay below it, which is what resolving one
row alone means.  Card text: giovinco's ``card(rank, suit)`` has suits 0-3 =
s h d c and ranks 2-14.
"""
from __future__ import annotations

YUTA = dict(variant="progressive", options=dict(joker_cards="board", joker_objective="royalties"))
GIOVINCO = dict(variant="progressive", options=dict(joker_cards="row", joker_objective="strength",
                                                    joker_top_natural=True))
VICTOR = dict(variant="pineapple", options=dict(joker_cards="row", joker_objective="royalties"))
WEAK = "2c 3d 4c / 5d 6d 7c 8c Tc /"   # a top and middle below every bottom row here

CASES = [
    # ---------------------------------------------------------------- YutaUra
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/evaluate_board.rs",
                 "ジョーカーはロイヤリティ最大に解決される"), **YUTA,
         layout="Qs Xj 3d / 8c 8d 8h Kc 2s / Ah Kh Qd Jh Th", foul=False,
         rows=("pair", "three of a kind", "straight"), royalty={0: 7}, next_fantasyland=14,
         substitutes=("Qh",)),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/evaluate_board.rs",
                 "ジョーカーはファウル回避のため弱く解決されることがある"), **YUTA,
         layout="As Xj 3d / 8c 8d Kc Qd 2s / Ah Kh Qh Jh Th", foul=False,
         rows=("pair", "pair", "straight flush"), royalty={0: 0}, substitutes=("3s",)),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/evaluate_board.rs",
                 "どう解決してもファウルなら素直にファウルになる"), **YUTA,
         layout="As Ah Xj / Kc Qd 9h 5c 2s / Ad Kh Qh Jh Td", foul=True,
         rows=(None, None, None), royalty={0: 0, 1: 0, 2: 0}, next_fantasyland=0),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "ジョーカー1枚はペアをトリップスに解決する"), **YUTA,
         layout=f"{WEAK} As Ad 9h 5c Xj", foul=False, rows=(None, None, "three of a kind")),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "ジョーカーはストレート完成を優先できる"), **YUTA,
         layout=f"{WEAK} 9s 8d 7h 6c Xj", foul=False, rows=(None, None, "straight")),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "ジョーカーはフラッシュ完成にも使える"), **YUTA,
         layout=f"{WEAK} As Ks 9s 5s Xj", foul=False, rows=(None, None, "flush")),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "ジョーカー2枚は最強の組み合わせに解決される"), **YUTA,
         layout=f"{WEAK} As Ad Ah Xj Xj", foul=False, rows=(None, None, "four of a kind"),
         substitutes=("Ac", "Ks")),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "三枚行のジョーカーはトリップスを狙う"), **YUTA,
         layout="Qs Qd Xj / 2c 3c 4c 5c 6c / 7d 8d 9d Td Jd", foul=False,
         rows=("three of a kind", None, None)),
    dict(source=("YutaUra/ofc-engine", "crates/engine/tests/joker.rs",
                 "三枚行のジョーカーはトリップスを狙う (As Kd Xj)"), **YUTA,
         layout="As Kd Xj / 2c 3c 4c 5c 6c / 7d 8d 9d Td Jd", foul=False,
         rows=("pair", None, None), substitutes=("Ah",)),
    # --------------------------------------------------------------- giovinco
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "top_joker_downgrades_to_best_non_busting_pair"), **GIOVINCO,
         layout="Qs Qh X1 / Ks Kh Ad Jd 9d / As Ah Ac 8s 7s", foul=False,
         rows=("pair", "pair", "three of a kind"), royalty={0: 7}, next_fantasyland=14,
         substitutes=("As",)),
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "middle_joker_downgrades_before_top_is_checked"), **GIOVINCO,
         layout="Js Th 8d / Ks Kh Qs Qh X1 / As Ah Ad 9s 8s", foul=False,
         rows=("high card", "two pair", "three of a kind"), royalty={1: 0}),
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "two_jokers_choose_quads_over_full_house"), **GIOVINCO,
         layout=f"{WEAK} As 2s 2h X1 X2", foul=False, rows=(None, None, "four of a kind"),
         royalty={2: 10}, substitutes=("2d", "2c")),
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "joker_straight_flush_value_matches_python_base15_encoding"), **GIOVINCO,
         layout=f"{WEAK} As Ks Qs X1 X2", foul=False, rows=(None, None, "straight flush"),
         royalty={2: 25}, substitutes=("Js", "Ts")),
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "joker_completes_highest_flush_kicker_exactly"), **GIOVINCO,
         layout=f"{WEAK} Kh Qh 9h 3h X1", foul=False, rows=(None, None, "flush"),
         substitutes=("Ah",)),
    dict(source=("giovinco0807/pineapple", "ai/rust_solver/ofc_core/src/lib.rs",
                 "second_joker_becomes_best_quads_kicker"), **GIOVINCO,
         layout=f"{WEAK} Qs Qh Qd X1 X2", foul=False, rows=(None, None, "four of a kind"),
         substitutes=("As", "Qc")),
    dict(source=("giovinco0807/pineapple",
                 "ai/rust_solver/ofc_core/tests/joker_constraint_parity.rs",
                 "fl_audit_board_is_a_foul"), **GIOVINCO,
         layout="Kd 2d Kc / Qs X2 7s 9s 4s / Jh 9h 3h 6h 2h", jokers=2, foul=True,
         rows=(None, None, None),
         royalty={0: 0, 1: 0, 2: 0}),
    # ------------------------------------------------------------- victorywys
    dict(source=("victorywys/OFC_Solver", "tests/test_rules.py",
                 "test_joker_on_top_avoids_foul_via_low_pairing"), **VICTOR,
         layout="Ks Kh X1 / As Ah Qd Jd Td / 2c 3c 4c 5c 6c", foul=False,
         rows=("pair", "pair", "straight flush"), substitutes=("As",)),
    dict(source=("victorywys/OFC_Solver", "tests/test_rules.py",
                 "test_joker_resolver_picks_max_royalty_when_safe"), **VICTOR,
         layout="Ks Kh Tc / As Ah X1 X2 Qd / 2c 3c 4c 5c 6c", foul=False,
         rows=("pair", "four of a kind", "straight flush"), royalty={1: 20},
         substitutes=("Ad", "Ac")),
    dict(source=("victorywys/OFC_Solver", "tests/test_rules.py",
                 "test_joker_resolver_falls_back_when_no_safe_assignment"), **VICTOR,
         layout="As Ah Ad / 2s 3d 4c 9h X1 / 7c 8c 9c Tc Jc", foul=True, rows=(None, None, None)),
    dict(source=("victorywys/OFC_Solver", "tests/test_rules.py",
                 "test_joker_on_bottom_can_use_card_placed_on_other_row"), **VICTOR,
         layout="6s Ah As / 2h 5h 7h 9h Qh / 2s 3s 4s 5s X1", foul=False,
         rows=("pair", "flush", "straight flush"), substitutes=("6s",)),
    dict(source=("victorywys/OFC_Solver", "tests/test_rules.py",
                 "test_joker_pool_includes_cards_placed_on_other_rows"), **VICTOR,
         layout="Ah As X1 / Ad 2d 5d 7d 9d / Ac 2c 3c 4c 5c", foul=False,
         rows=("three of a kind", "flush", "straight flush"), substitutes=("Ad",)),
]
