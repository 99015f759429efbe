"""A user's script written against README.md and the docs, with no cast and no
ignore: CI type-checks it with ``mypy --strict`` and with pyright
(tests/test_typing.py runs mypy on it too)."""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import ofc_fast as ofc
import ofc_fast.io as fio
from ofc_fast.report import sample_path

# Hand strength: one hand gives an int, an ndarray gives an ndarray.
best: int = ofc.strength5("As Ks Qs Js Ts")
top: int = ofc.strength3("Qc Qd 5h")
joint: int = ofc.row_strength([0, 4, 8])
hands = np.array([[0, 1, 2, 3, 4]] * 4, dtype=np.uint8)     # (n, 5) uint8 card ids
batch: npt.NDArray[np.uint16] = ofc.strength5(hands)
name: str = ofc.describe_strength(joint)
row_name: str = ofc.describe("As Ks Qs Js Ts")             # one hand: a str
row_names: npt.NDArray[np.object_] = ofc.describe([[0, 4, 8], [1, 5, 9]])   # a batch
ids: npt.NDArray[np.uint8] = ofc.parse_cards("As Kd 10h")
text: str = ofc.format_card(51)

# Rules and layouts.
v: ofc.Variant = ofc.variant("pineapple", finnish=True)
lay: npt.NDArray[np.uint8] = ofc.parse_layout("Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d", v)
other = ofc.parse_layout("Ks Kd 3c / 2h 3h 4h 5h 6d / Tc Td Ts Th 8d", v)
ev: ofc.Evaluation = ofc.evaluate(lay, v)
fouled: bool = bool(ev.foul[0])
per_row: list[int] = ev.royalties[0].tolist()
next_cards: int = int(ev.next_fantasyland[0])

# Scoring.
pair: ofc.PairResult = ofc.score_pair(lay, other, v)
points: int = pair.points
matrix: npt.NDArray[np.int32] = ofc.score_matrix(np.stack([lay, other]), v)
totals: npt.NDArray[np.int64] = ofc.score_field(np.stack([lay, other]), v)
tables: npt.NDArray[np.int32] = ofc.score_tables(np.stack([lay, other])[None], v)
money: npt.NDArray[np.float64] = ofc.settle(matrix, stake=2.0)

# Fantasyland solver.
sol: ofc.FantasylandSolution = ofc.solve_fantasyland("As Ks Qs Js Ts 9h 9d 9c 9s 2h 3h 4d 5c 6c", v)
royalty_total: int = sol.royalty_total

# Engine and rollouts.
match = ofc.Match("pineapple", names=["ann", "ben"], seed=1)
scores: npt.NDArray[np.int64] = match.run()
ended: str | None = match.ended_by
game = ofc.Game("pineapple", 2, seed=7)
moves: ofc.MoveList = game.legal_moves()
game.play(moves[0])
branch: ofc.Game = game.copy()
dead: bool = game.is_dead(0)
# The documented play loop: the seat to act is an int | None, which the
# seat-taking methods accept (None: the seat to act).
hand = ofc.Game("pineapple", 3, seed=11)
chooser = ofc.HeuristicPolicy(seed=2, samples=2)
while not hand.done:
    view: ofc.PlayerView = hand.view(hand.to_act)
    hand.play(chooser.choose(view, hand.legal_moves()))
mine: npt.NDArray[np.uint8] = hand.layout(hand.to_act if hand.to_act is not None else 0)
outcome: ofc.HandResult = hand.result()
# a per-seat list indexed by the seat to act (seat_to_act is an int)
table = ofc.Game("pineapple", 2, seed=5)
seat_policies: list[ofc.Policy] = [ofc.RandomPolicy(1), ofc.HeuristicPolicy(2, samples=2)]
while not table.done:
    seat: int = table.seat_to_act
    table.play(seat_policies[seat].choose(table.view(seat), table.legal_moves()))
stats: ofc.RolloutStats = ofc.rollout("As Ad __ / __ __ __ __ __ / __ __ __ __ __", n=100, seed=1)
rate: float = float(stats.foul_rate[0])

# Files.
run: fio.ScoreRun = fio.score_file(sample_path())
read: int = run.records

# Errors.
try:
    ofc.variant("pineapple", repeat_limit=2.7)
except ofc.RulesError as err:
    message: str = str(err)
