"""Many games at once, in C: the batch engine's Python face.

* :mod:`ofc_fast.sim.actions`: the action encoding of external seats;
* :mod:`ofc_fast.sim.spec`: a batch's arguments, checked once (:class:`BatchSpec`);
* :mod:`ofc_fast.sim.batch`: :class:`GameBatch` and the hands it played
  (:class:`FinishedHands`); the C loops are ``ofc_fast._batch``;
* :mod:`ofc_fast.sim.seats`: a batch's Python seats (policies that cannot
  run in C: a trained network), played between the C calls;
* :mod:`ofc_fast.sim.selfplay`: self-play as recorded hands.

A :class:`GameBatch` holds ``n_games`` independent games of one variant and
advances them together without the GIL (the loops are ``ofc_fast._batch``,
over the hand state machine of ``ofc_fast._hand`` that :class:`Game` uses).
Each game is a match continued hand after hand (:class:`Match` semantics:
the button moves after every hand without a fantasyland player,
fantasyland earned is played in the next hand, scores run on).  The
engine plays every turn that is not an *external* seat's: the built-in
policies, every fantasyland hand (the exact solver), the automatic moves
and time-outs of docs/rules.md section 9.  External seats act through
:meth:`GameBatch.observe` and :meth:`GameBatch.step`, all games in one call.

>>> b = GameBatch("pineapple", n_games=4, n_players=3, seed=1)
>>> points = b.run(hands=2)               # every seat "random", in C
>>> points.shape, points.sum(axis=1).tolist()       # zero-sum per game
((4, 3), [0, 0, 0, 0])

One rule book
-------------
Game ``i`` of ``GameBatch(seed=s)`` deals what ``Match(variant, n_players,
seed=[s, i])`` deals (:meth:`GameBatch.game_seed`), hand after hand; the
legal actions of a turn are :meth:`Game.legal_moves` in the same order, the
automatic moves and the points are the same (``tests/test_sim.py`` replays
batches through :class:`Game` and :class:`Match`).

The action encoding
-------------------
An action (fantasyland aside: the engine plays fantasyland hands) is the
destination of every card dealt to the player to act, in deal order, as
base ``R + 1`` digits, card 0 the lowest digit: digit ``j`` is ``0 .. R - 1``
for a row (top first) or ``R`` for a discard (``R`` rows).  Digits beyond
the cards dealt are 0, so every move is exactly one action.  The action
space is ``range((R + 1) ** k)``, ``k`` the most cards a street deals
(:func:`action_size`): 1,024 in Pineapple (4 ** 5), 3,125 ... 15,625 on four
rows.

======== ===== ===== ===== ===== =====
card      0     1     2     3     4
======== ===== ===== ===== ===== =====
weight    1     4     16    64    256
======== ===== ===== ===== ===== =====

In Pineapple (``R = 3``: top 0, middle 1, bottom 2, discard 3) the second
street deals ``Kd 7c 2s``; "Kd middle, 7c bottom, discard 2s" is
``1 + 2 * 4 + 3 * 16 = 57``:

>>> action_of((1, 2, -1), "pineapple"), action_rows(57, 3, "pineapple")
(57, (1, 2, -1))

Speed and memory: ``benchmarks/bench_sim.py`` (docs/performance.md).
"""
from ofc_fast.sim.actions import MAX_ACTIONS, action_of, action_rows, action_size
from ofc_fast.sim.batch import TIMEOUT, FinishedHands, GameBatch
from ofc_fast.sim.selfplay import hands_chunk, selfplay, selfplay_chunks
from ofc_fast.sim.spec import POLICIES, BatchPolicies, BatchSpec, PolicyLike

__all__ = ["GameBatch", "BatchSpec", "FinishedHands", "selfplay", "selfplay_chunks",
           "hands_chunk", "PolicyLike", "BatchPolicies", "POLICIES", "TIMEOUT",
           "MAX_ACTIONS", "action_size", "action_of", "action_rows"]
