"""The lenient readers every rule reads nodes through (hyper.yaml.access, Map's own).

A repeated key is a fault of its own, but the tree keeps both entries, and every reader
must agree on which one counts: the later, as the reference's decoder reads it.
"""

from __future__ import annotations

from hyper.yaml.access import fields, member, scalars
from hyper.yaml.nodes import Map, Scalar
from hyper.yaml.subset import parse


def _repeated() -> Map:
    root = parse(b"a: 1\nb: [x, {y: z}, w]\na: 2\nc: 3\n", "f.yaml").root
    assert isinstance(root, Map)
    return root


REPEATED = _repeated()


def test_the_later_of_a_repeated_key_counts_for_every_reader() -> None:
    assert [(name, value) for name, value in fields(REPEATED, "a", "c").items()] == [
        ("a", Scalar(("2", "plain", 3, 4))),
        ("c", Scalar(("3", "plain", 4, 4))),
    ]
    assert isinstance(got := member(REPEATED, "a"), Scalar) and (got.value, got.line) == ("2", 3)
    assert (entry := REPEATED.get("a")) is not None and entry[0].line == 3
    assert (value := REPEATED.scalar("a")) is not None and value.value == "2"
    assert REPEATED.keys() == ("a", "b", "a", "c")


def test_an_absent_key_or_a_node_of_another_kind_reads_as_nothing() -> None:
    assert member(REPEATED, "d") is None and REPEATED.get("d") is None and REPEATED.value("d") is None
    assert fields(REPEATED, "d") == {} and fields(None, "a") == {} and member(Scalar(("a", "plain", 1, 1)), "a") is None
    assert REPEATED.scalar("b") is None


def test_a_sequence_s_scalars_keep_their_indices() -> None:
    assert [(i, item.value) for i, item in scalars(REPEATED.value("b"))] == [(0, "x"), (2, "w")]
    assert scalars(REPEATED) == ()
