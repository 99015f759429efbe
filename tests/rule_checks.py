"""The rule book's layout checks shared by tests/test_rules*.py: the library's
evaluation beside the independent slow scorer, both held to RULES.md."""
import slow_scorer as S
from ofc_fast import evaluate, parse_layout, score_pair, variant


def ev(text, v, fl=None):
    """Library evaluation of one layout (text)."""
    return evaluate(parse_layout(text, v), v, in_fantasyland=fl)


def check_layout(text, name, opts=None, *, foul=None, royalties=None, fl_cards=None,
                 fl_count=0, repeat=None):
    """Evaluate ``text`` in the library and in the slow scorer; compare both with
    the rule book's expectation."""
    opts = opts or {}
    v, r = variant(name, **opts), S.rules(name, **opts)
    e = ev(text, v, fl_count if fl_count else None)
    s = S.evaluate(text, r, fl_count)
    got = dict(foul=bool(e.foul[0]), royalties=e.royalties[0].tolist(),
               fl_cards=int(e.next_fantasyland[0]), repeat=bool(e.repeat[0]))
    slow = dict(foul=s.foul, royalties=s.royalties, fl_cards=s.fantasyland, repeat=s.repeat)
    want = dict(foul=foul, royalties=royalties, fl_cards=fl_cards, repeat=repeat)
    for k, w in want.items():
        if w is None:
            continue
        assert slow[k] == w, f"slow scorer disagrees with RULES.md on {k} of {text!r}"
        assert got[k] == w, (f"{name} {opts}: {text!r}: {k} = {got[k]!r}, "
                             f"RULES.md says {w!r}")
    if not got["foul"] and not slow["foul"]:
        assert int(e.royalty_total[0]) == sum(got["royalties"])
    return e


def pair_points(a, b, name, opts=None):
    """Library points of a against b, checked against the slow scorer."""
    opts = opts or {}
    v, r = variant(name, **opts), S.rules(name, **opts)
    res = score_pair(a, b, v)
    assert S.points(a, b, r) == res.points, "slow scorer and library disagree"
    return res
