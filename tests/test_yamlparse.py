"""hyper.yaml.parse: every construct of the subset, every refusal, and that it stays light.

Agreement with PyYAML on arbitrary input is test_yamlparse_differential's job; here
each construct is pinned down on its own, with the exact tree or fault expected.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable

import pytest

from hyper.core.pattern import compiled
from hyper.core.problem import Problem
from hyper.yaml import scanner
from hyper.yaml.nodes import ERROR_CODE, Map, Node, Parsed, Scalar, Seq, YamlFault
from hyper.yaml.parse import load, parse

NULL = "the scalar vocabulary has no null — write the value out, or quote it to mean the text"
ANCHOR = "an anchor is outside the YAML the authoring format admits"
ALIAS = "an alias is outside the YAML the authoring format admits"
TAG = "an explicit tag is outside the YAML the authoring format admits"
MERGE = "a merge key (<<) is outside the YAML the authoring format admits"
COLLECTION_KEY = "a mapping key must be a scalar, never a list or a mapping"
SECOND = "a file holds one YAML document, and a second one starts here"


def tree(src: str) -> Node | None:
    parsed = parse(src.encode(), "f.yaml")
    assert parsed.ok and not parsed.faults, parsed.faults
    return parsed.root


def value(src: str, key: str = "a") -> Scalar:
    root = tree(src)
    assert isinstance(root, Map)
    found = root.value(key)
    assert isinstance(found, Scalar), found
    return found


def faults(src: str) -> list[tuple[int, int, str, str]]:
    parsed = parse(src.encode(), "f.yaml")
    assert parsed.ok, parsed.faults
    return [(f.line, f.column, f.field, f.message) for f in parsed.faults]


def broken(data: bytes) -> YamlFault:
    parsed = parse(data, "dir/f.yaml")
    assert not parsed.ok and parsed.root is None and len(parsed.faults) == 1, parsed
    fault = parsed.faults[0]
    assert fault.file == "dir/f.yaml" and fault.column == 1
    return fault


# ----------------------------------------------------------------------------- tree


def test_a_block_mapping_with_its_positions() -> None:
    root = tree("kind: provider\nops:\n  read: {kind: read}\n  list: [a, 'b']\n")
    read = Map((((Scalar(("kind", "plain", 3, 10)), Scalar(("read", "plain", 3, 16))),), 3, 9, True))
    listed = Seq(((Scalar(("a", "plain", 4, 10)), Scalar(("b", "single", 4, 13))), 4, 9, True))
    ops = Map((((Scalar(("read", "plain", 3, 3)), read), (Scalar(("list", "plain", 4, 3)), listed)), 3, 3, False))
    kind = (Scalar(("kind", "plain", 1, 1)), Scalar(("provider", "plain", 1, 7)))
    assert root == Map(((kind, (Scalar(("ops", "plain", 2, 1)), ops)), 1, 1, False))


def test_scalars_stay_text_whatever_yaml_would_type_them() -> None:
    root = tree("a: yes\nb: 0x1\nc: 1e3\nd: on\ne: 0755\nf: 2026-01-01\ng: true\nh: .inf\n")
    assert isinstance(root, Map)
    assert [v.value for _, v in root.entries if isinstance(v, Scalar)] == [
        *("yes", "0x1", "1e3", "on", "0755", "2026-01-01", "true", ".inf")
    ]


def test_block_sequences_in_every_layout() -> None:
    root = tree("- a\n- - b\n  - c\n- k: v\n  l: w\n-\n  m: n\n")
    assert isinstance(root, Seq) and (root.line, root.column, root.flow) == (1, 1, False)
    a, inner, compact, below = root.items
    assert a == Scalar(("a", "plain", 1, 3))
    assert isinstance(inner, Seq) and [i.value for i in inner.items if isinstance(i, Scalar)] == ["b", "c"]
    assert (inner.line, inner.column) == (2, 3)
    assert isinstance(compact, Map) and compact.keys() == ("k", "l") and (compact.line, compact.column) == (4, 3)
    assert isinstance(below, Map) and (below.line, below.column) == (7, 3)


def test_a_sequence_under_a_key_may_sit_at_the_keys_column() -> None:
    indented = tree("steps:\n  - a\n  - b\nnext: c\n")
    flush = tree("steps:\n- a\n- b\nnext: c\n")
    assert isinstance(indented, Map) and isinstance(flush, Map)
    steps, level = indented.value("steps"), flush.value("steps")
    assert isinstance(steps, Seq) and (steps.line, steps.column) == (2, 3)
    assert isinstance(level, Seq) and (level.line, level.column) == (2, 1)
    assert [i.value for i in level.items if isinstance(i, Scalar)] == ["a", "b"]
    assert flush.keys() == ("steps", "next")


def test_flow_collections_nest_and_span_lines() -> None:
    root = tree("a: {b: [1, 2, {c: d}], e: 'f',\n   g: [\n     h, i\n   ]}\n")
    assert isinstance(root, Map)
    inner = root.value("a")
    assert isinstance(inner, Map) and inner.flow and inner.keys() == ("b", "e", "g")
    b = inner.value("b")
    assert isinstance(b, Seq) and b.flow and isinstance(b.items[2], Map) and b.items[2].flow
    g = inner.value("g")
    assert isinstance(g, Seq) and g.items == (Scalar(("h", "plain", 3, 6)), Scalar(("i", "plain", 3, 9)))


def test_a_flow_sequence_item_may_be_a_one_pair_mapping() -> None:
    root = tree("a: [k: v, x]\n")
    assert isinstance(root, Map)
    seq = root.value("a")
    assert isinstance(seq, Seq)
    assert seq.items[0] == Map((((Scalar(("k", "plain", 1, 5)), Scalar(("v", "plain", 1, 8))),), 1, 5, True))


def test_plain_scalars_fold_across_lines() -> None:
    assert value("a: one\n  two\n\n  three\n     four\n").value == "one two\nthree four"
    assert value("a: colons:inside and hash#inside\n").value == "colons:inside and hash#inside"
    assert value("a: url http://x.y/z # a comment\n").value == "url http://x.y/z"


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("a: 'it''s'", "it's"),
        ("a: 'one\n  two\n\n  three'", "one two\nthree"),
        (r'a: "tab\there \"q\" back\\slash \/"', 'tab\there "q" back\\slash /'),
        (r'a: "\x41\u00e9\U0001F600\0\a\b\e\f\n\r\v\N\_\L\P\ "', "Aé😀\0\x07\x08\x1b\x0c\n\r\x0b\x85\xa0\u2028\u2029 "),
        ('a: "joined \\\n   on"', "joined on"),
        ('a: "one\n  two"', "one two"),
    ],
)
def test_quoted_scalars_and_their_escapes(src: str, expected: str) -> None:
    assert value(src).value == expected


@pytest.mark.parametrize(
    ("src", "expected", "style"),
    [
        ("a: |\n  one\n  two\n\n", "one\ntwo\n", "literal"),
        ("a: |-\n  one\n  two\n\n", "one\ntwo", "literal"),
        ("a: |+\n  one\n  two\n\n", "one\ntwo\n\n", "literal"),
        ("a: >\n  one\n  two\n\n  three\n", "one two\nthree\n", "folded"),
        ("a: >\n  one\n    more\n  two\n", "one\n  more\ntwo\n", "folded"),
        ("a: |2\n    indented\n  text\n", "  indented\ntext\n", "literal"),
        ("a: >-2 # note\n   x\n", " x", "folded"),
        ("a: |\n  last line, no break", "last line, no break", "literal"),
    ],
)
def test_block_scalars_with_chomping_and_indentation(src: str, expected: str, style: str) -> None:
    scalar = value(src)
    assert (scalar.value, scalar.style, scalar.line, scalar.column) == (expected, style, 1, 4)


def test_comments_and_document_markers() -> None:
    root = tree("# head\n--- # start\na: b # tail\n# between\nc: d\n...\n# after\n")
    assert isinstance(root, Map) and root.keys() == ("a", "c") and root.line == 3


def test_empty_and_comment_only_files_are_no_document() -> None:
    assert parse(b"", "f.yaml") == Parsed(None, (), True)
    assert load(b"# nothing here\n\n", "f.yaml") is None
    assert load(b"---\n...\n", "f.yaml") == YamlFault("f.yaml", 2, 1, NULL)


def test_an_explicit_scalar_key_is_an_ordinary_key() -> None:
    root = tree("? a\n: b\n")
    assert root == Map((((Scalar(("a", "plain", 1, 3)), Scalar(("b", "plain", 2, 3))),), 1, 1, False))


def test_line_breaks_of_every_spelling() -> None:
    root = tree("a: one\r\n  two\r\nb: |\r\n  x\r\n")
    assert isinstance(root, Map) and root.scalar("a") == Scalar(("one two", "plain", 1, 4))
    assert root.scalar("b") == Scalar(("x\n", "literal", 3, 4))
    kept = value("a: 'x\u2028  y'")  # LS and PS are line breaks, kept as themselves
    assert kept.value == "x\u2028y"


def test_a_byte_order_mark_is_skipped() -> None:
    root = tree("\ufeffa: b\n")
    assert isinstance(root, Map) and root.entries[0][0].column == 1


def test_map_helpers_and_scalar_plainness() -> None:
    root = tree("a: 1\nb: [x]\nc: 'q'\n")
    assert isinstance(root, Map)
    assert root.keys() == ("a", "b", "c")
    assert root.get("a") == (Scalar(("a", "plain", 1, 1)), Scalar(("1", "plain", 1, 4)))
    assert root.scalar("b") is None and isinstance(root.value("b"), Seq)
    assert root.get("zz") is None and root.value("zz") is None
    assert root.scalar("a") is not None and root.scalar("a").plain  # type: ignore[union-attr]
    assert root.scalar("c") is not None and not root.scalar("c").plain  # type: ignore[union-attr]


def test_the_later_of_two_repeated_keys_is_the_one_get_finds() -> None:
    parsed = parse(b"a: 1\na: 2\n", "f.yaml")
    assert isinstance(parsed.root, Map)
    assert parsed.root.scalar("a") == Scalar(("2", "plain", 2, 4))


# ------------------------------------------------------------------------- refusals


def test_each_refused_construct_is_its_own_fault_at_its_node() -> None:
    src = "a: &x 1\nb: *x\n<<: {c: 1}\nd: !!str 3\na: 2\ne: [~, &y {f: }]\ng: null\nh: 'null'\n"
    assert faults(src) == [
        (1, 4, "a", ANCHOR),
        (2, 4, "b", ALIAS),
        (3, 1, "<<", MERGE),
        (4, 4, "d", TAG),
        (5, 1, "a", '"a" is already a key of this mapping — each key is written once'),
        (6, 5, "e[0]", NULL),
        (6, 8, "e[1]", ANCHOR),
        (6, 15, "e[1].f", NULL),
        (7, 4, "g", NULL),
    ]


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("a:\nb: 2\n", [(1, 3, "a", NULL)]),  # a key with no value
        ("a: \n", [(1, 3, "a", NULL)]),
        ("- \n- x\n", [(1, 2, "[0]", NULL)]),  # an empty item
        ("a: {b: }\n", [(1, 8, "a.b", NULL)]),
        ("a: [x, ]\n", []),  # a trailing comma is no item
        ("x:\n  - ~\n  - Null\n  - NULL\n", [(2, 5, "x[0]", NULL), (3, 5, "x[1]", NULL), (4, 5, "x[2]", NULL)]),
        ("~: v\n", [(1, 1, "", NULL)]),
        ("---\n", [(2, 1, "", NULL)]),
        ("a: !t\n", [(1, 4, "a", TAG), (1, 4, "a", NULL)]),
    ],
)
def test_nulls_are_refused_wherever_they_stand(src: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert faults(src) == expected


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("a: !foo x\nb: !<tag:x> y\n", [(1, 4, "a", TAG), (2, 4, "b", TAG)]),
        ("%TAG !e! tag:e.org,2000:\n---\na: !e!x y\n", [(3, 4, "a", TAG)]),
        ("a: &anchor [x]\n", [(1, 4, "a", ANCHOR)]),
        ("a: !t &x {b: c}\n", [(1, 4, "a", ANCHOR), (1, 4, "a", TAG)]),
    ],
)
def test_tags_and_anchors_are_refused_on_any_node(src: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert faults(src) == expected


def test_a_quoted_merge_key_is_an_ordinary_key() -> None:
    assert tree("'<<': 1\n") == Map((((Scalar(("<<", "single", 1, 1)), Scalar(("1", "plain", 1, 7))),), 1, 1, False))


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("a", '"a"'),
        ('say "hi"', '"say \\"hi\\""'),
        ("back\\slash", '"back\\\\slash"'),
        ("tab\there", '"tab\\u0009here"'),
        ("nbsp\xa0", '"nbsp\\u00a0"'),
        ("é", '"é"'),
    ],
)
def test_a_repeated_key_is_named_quoted_and_escaped(key: str, shown: str) -> None:
    escaped = key.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    src = f'x:\n  "{escaped}": 1\n  "{escaped}": 2\n'
    (fault,) = faults(src)
    assert fault[3] == f"{shown} is already a key of this mapping — each key is written once"


@pytest.mark.parametrize("src", ["? [k]\n: v\nz: 1\n", "[k]: v\nz: 1\n", "{k: x}: v\nz: 1\n"])
def test_a_collection_as_key_is_refused_and_dropped(src: str) -> None:
    parsed = parse(src.encode(), "f.yaml")
    assert [(f.line, f.message) for f in parsed.faults] == [(1, COLLECTION_KEY)]
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("z",)


def test_a_second_document_is_refused_and_only_the_first_is_kept() -> None:
    parsed = parse(b"a: 1\n---\nb: &x 2\n---\nc: 3\n", "f.yaml")
    assert [(f.line, f.column, f.message) for f in parsed.faults] == [(2, 1, SECOND)]
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("a",)


def test_a_later_document_that_does_not_parse_breaks_the_file() -> None:
    assert broken(b"a: 1\n---\nb: [2\n").line == 2


def test_a_fault_keeps_the_tree_so_later_checks_still_read_it() -> None:
    parsed = parse(b"a:\nb: 2\n", "f.yaml")
    assert parsed.ok and len(parsed.faults) == 1
    assert isinstance(parsed.root, Map) and parsed.root.keys() == ("a", "b")
    assert load(b"a:\nb: 2\n", "f.yaml") == parsed.faults[0]


@pytest.mark.parametrize(
    ("data", "line", "problem"),
    [
        (b"a: [1\n", 1, "did not find expected ',' or ']'"),
        (b"a:\n\tb: 1\n", 2, "found character that cannot start any token"),
        (b"k: v\n  bad: x\n", 2, "mapping values are not allowed in this context"),
        (b"a: b: c\n", 1, "mapping values are not allowed in this context"),
        (b"- a\nb: c\n", 1, "did not find expected '-' indicator"),
        (b"a: 1\nb\nc: 2\n", 2, "could not find expected ':'"),
        (b'a: "\\q"\n', 1, "found unknown escape character"),
        (b"a: 'open\n", 2, "found unexpected end of stream"),
        (b"a: |0\n  x\n", 1, "found an indentation indicator equal to 0"),
        (b"a: *\n", 1, "did not find expected alphabetic or numeric character"),
        (b"'a'\n'b'\n", 1, "did not find expected <document start>"),
        (b"%FOO bar\n---\na: b\n", 1, "found unknown directive name"),
        (b"a: !e!x y\n", 1, "found undefined tag handle"),
        (b"x: 1\na: |2-x\n  y\n", 2, "did not find expected comment or line break"),
        (b"%YAML 1.2 x\n---\na\n", 1, "did not find expected comment or line break"),
        (b"a: 'x\n--- \n", 2, "found unexpected document indicator"),
    ],
)
def test_a_file_that_is_not_yaml_is_one_fault_citing_libyamls_problem(data: bytes, line: int, problem: str) -> None:
    fault = broken(data)
    assert (fault.line, fault.message) == (line, f"the file is not well-formed YAML: {problem}")


def test_text_that_is_not_utf8_is_refused_at_its_line() -> None:
    fault = broken(b"a: 1\nb: 2\nc: \xff\n")
    assert (fault.line, fault.message) == (3, "the file is not UTF-8 text, which every artefact must be")


@pytest.mark.parametrize(("char", "code"), [("\x01", "0001"), ("\x7f", "007f"), ("\x9b", "009b"), ("\uffff", "ffff")])
def test_control_characters_are_refused_before_anything_else(char: str, code: str) -> None:
    fault = broken(f"a: [1\nb: {char}\n".encode())
    assert fault.line == 1
    assert (
        fault.message
        == f"the file is not well-formed YAML: unacceptable character #x{code}: control characters are not allowed"
    )


def test_tabs_may_separate_but_never_indent() -> None:
    assert value("a:\tb\n").value == "b"
    assert broken(b"a:\n\t- b\n").line == 2
    assert broken(b"a: |\n\tx\n").message.endswith("found a tab character where an indentation space is expected")


def test_nesting_is_read_to_the_held_depth_and_refused_past_it_with_a_sentence() -> None:
    # 200 levels in all, block and flow together: where hyper parts from libyaml's thousand.
    held = "the file is not well-formed YAML: "
    too_deep = "collections nest more than 200 levels deep here, deeper than hyper reads"
    assert parse(b"[" * 200 + b"]" * 200, "f.yaml").ok
    assert broken(b"[" * 201 + b"]" * 201).message == too_deep
    assert parse(b"- " * 200 + b"x", "f.yaml").ok
    assert broken(b"- " * 201 + b"x").line == 1
    deep = "".join(" " * level + "k:\n" for level in range(199)) + " " * 199 + "[v]\n"
    assert parse(deep.encode(), "f.yaml").ok
    assert broken(deep.replace("[v]", "[[v]]").encode()) == YamlFault("dir/f.yaml", 200, 1, too_deep)
    valued = "".join(" " * level + "k:\n" for level in range(198)) + " " * 198 + "v: [x]\n"
    assert parse(valued.encode(), "f.yaml").ok
    assert broken(valued.replace("[x]", "[[x]]").encode()).line == 199
    assert broken(valued.replace("[x]", "{a: {b: x}}").encode()).line == 199
    # Past libyaml's own bound the scanner says so first, in libyaml's words.
    assert broken(b"[" * 1001 + b"]" * 1001).message == held + "exceeded maximum nesting depth"


NESTINGS: dict[str, Callable[[int], bytes]] = {
    "flow pairs": lambda n: b"[" + b"a: [" * (n - 1) + b"x" + b"]" * n,
    "flow mappings": lambda n: b"{a: " * n + b"x" + b"}" * n,
    "flow sequences": lambda n: b"[" * n + b"x" + b"]" * n,
    "block sequences": lambda n: b"- " * n + b"x\n",
    "block mappings": lambda n: (
        b"".join(b"  " * depth + b"a:\n" for depth in range(n - 1)) + b"  " * (n - 1) + b"a: x\n"
    ),
    "explicit keys": lambda n: b"? " * n + b"x\n",
}


@pytest.mark.parametrize("nested", NESTINGS.values(), ids=NESTINGS.keys())
def test_the_held_depth_needs_no_raised_recursion_limit(nested: Callable[[int], bytes]) -> None:
    """Three frames a level at most, in every way of nesting: 200 levels read with a caller
    already 300 frames deep, 201 are refused in a sentence, and the process-wide limit is
    never touched."""

    def at(depth: int, data: bytes) -> Parsed:
        return at(depth - 1, data) if depth else parse(data, "f.yaml")

    limit = sys.getrecursionlimit()
    parsed = at(300, nested(200))
    assert parsed.ok, parsed.faults[:1]
    refused = at(300, nested(201))
    assert not refused.ok
    assert refused.faults[0].message == "collections nest more than 200 levels deep here, deeper than hyper reads"
    assert sys.getrecursionlimit() == limit


def test_the_quick_pair_pattern_reads_a_line_as_the_full_one_does() -> None:
    """The scanner tries a cheap pattern for the commonest ``key: value`` lines before the
    full one; wherever the cheap one matches, it must match exactly as the full one does."""
    rng = random.Random(11)
    pieces = ["key", "a1", "_x.y-z", ":", ": ", " ", "\t", "\n", "\n  ", "'", '"', "''", "\\", "[", "{", "#", "- "]
    pieces += ["a b", "$v", "/p", "x:y", "=+@", ",", "~", "null", "'q'", '"d"', "-x", "?"]
    pieces += ["sha256:0f", "a:b:c", "x:", ":y", "a::b", "n:1", "]", "}", "/v1/{id}", "a[0]", "x,y", " {a}"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))) for _ in range(6000)]
    texts += ["kind: procedure\n  next: 1\n", "k: 'q'\n", 'k: "d"\n', "k: [a]\n", "k:\n", "k: a b\n"]
    texts += ["digest: sha256:" + "0" * 64 + "\n", "k: a:b c:d\n", "k: a:b: c\n", "k: a: b\n", "k: a:\n"]
    texts += ["k: a #b\n", "k: a#b\n", "k: a {b}\n", "k: /v1/{id}\n", "k: a, b]\n", "k: a [b] #c\n", "k: a: {b}\n"]
    matched = 0
    for text in texts:
        padded = text + "\0" * 12
        for i in range(len(text)):
            quick = scanner._SIMPLE_PAIR.match(padded, i)
            if quick is not None:
                matched += 1
                full = compiled(scanner._KEY_VALUE).match(padded, i)
                assert full is not None and [quick.span(g) for g in range(6)] == [full.span(g) for g in range(6)], text
    assert matched > 300
    digest = scanner._SIMPLE_PAIR.match("digest: sha256:" + "0" * 64 + "\n\0")
    assert digest is not None and digest.group(3) == "sha256:" + "0" * 64  # no full pattern for a hyper.yaml


def test_a_one_line_flow_value_nested_in_place_reads_as_its_tokens_would() -> None:
    inner = Map((((Scalar(("c", "plain", 1, 13)), Scalar(("d", "plain", 1, 16))),), 1, 12, True))
    listed = Seq(((Scalar(("b", "plain", 1, 9)), inner), 1, 8, True))
    pairs = ((Scalar(("a", "plain", 1, 5)), listed), (Scalar(("e", "plain", 1, 21)), Scalar(("f", "plain", 1, 24))))
    value_ = Map((pairs, 1, 4, True))
    assert tree("k: {a: [b, {c: d}], e: f}\n") == Map((((Scalar(("k", "plain", 1, 1)), value_),), 1, 1, False))


def test_long_lines_read_in_linear_time() -> None:
    # Regex backtracking gone quadratic or worse would make this hang, not fail.
    words = " ".join(["w:x"] * 40_000)
    assert value(f"a: {words}\n").value == words
    assert isinstance(load(("k: " + "a:" * 50_000 + "\n").encode(), "f.yaml"), YamlFault)


# --------------------------------------------------------------------- the interface


def test_a_fault_reads_as_a_problem_row() -> None:
    fault = parse(b"a: ~\n", "targets/x.yaml").faults[0]
    assert fault.to_problem() == Problem("targets/x.yaml", 1, 4, "a", ERROR_CODE, NULL)
    assert ERROR_CODE == "strict-yaml-violation"


def test_importing_the_reader_pulls_in_no_heavy_module() -> None:
    code = (
        "import sys, hyper.yaml.parse\n"
        "print(sorted(n for n in sys.modules if n.split('.')[0] in {'yaml', 'attr', 'attrs', 'orjson', 'json'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
