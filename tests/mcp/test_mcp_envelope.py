"""Answers mapped to envelopes: the six shapes, the text block, and the golden layout."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import orjson
import pytest

from hyper_mcp.envelope import (
    RECORD_LOCATION,
    RETRY,
    Envelope,
    Structured,
    TextBlock,
    envelope_from_wire,
    envelope_of,
    render_envelope_golden,
    summary_line,
)
from hyper_mcp.errors import ProtocolError
from tests.mcp.fake_commands import (
    PROBLEM_TABLE,
    PROBLEMS,
    PROVIDERS,
    RUN_ID,
    RUN_STEPS,
    STORE_ABSENT,
    TABLE,
    answer,
    outcome_row,
    row,
    tool,
)

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance" / "mcp"


def test_an_ordinary_answer_is_a_summary_line_and_the_rows_as_encoded() -> None:
    envelope = envelope_of(tool("providers"), answer(PROVIDERS))
    assert envelope.text == "2 Providers"
    assert envelope.is_error is False
    assert envelope.structured == Structured(rows=PROVIDERS, truncated=b"false")
    assert envelope.encode() == (
        b'{"content":[{"type":"text","text":"2 Providers"}],"structuredContent":{"rows":['
        + b",".join(PROVIDERS)
        + b'],"truncated":false},"isError":false}'
    )


def test_nothing_found_is_no_rows_and_an_empty_array() -> None:
    envelope = envelope_of(tool("targets"), answer())
    assert envelope.text == "no rows"
    assert envelope.structured is not None and envelope.structured.rows == ()
    assert b'"rows":[]' in envelope.encode()


def test_problems_found_put_the_table_beneath_the_line() -> None:
    envelope = envelope_of(tool("check"), answer(PROBLEMS, rendering=PROBLEM_TABLE, exit=1))
    assert envelope.text == "2 problems\n\n" + PROBLEM_TABLE
    assert envelope.is_error is True
    assert envelope.structured is not None and envelope.structured.outcome is None


def test_a_clean_check_is_the_line_alone() -> None:
    assert envelope_of(tool("check"), answer(rendering="nothing to report\n")).text == "no rows"


def test_a_guardrail_declining_a_tool_that_is_not_a_run_has_no_structured_half() -> None:
    envelope = envelope_of(tool("runs"), answer(terminal=None, refusal=STORE_ABSENT, exit=77))
    assert envelope.structured is None
    assert envelope.is_error is True
    assert envelope.text == STORE_ABSENT.rstrip("\n") + "\n\n" + RETRY
    assert b"structuredContent" not in envelope.encode()


def test_a_run_refusing_forwards_its_page_and_lifts_its_outcome() -> None:
    page = "STEP  ID  KIND\n\nrefused: bound-exceeded\n\nrefused · exit 77 · hyper show x\n"
    terminal = outcome_row("refused", 77)
    envelope = envelope_of(tool("run"), answer(RUN_STEPS, terminal, rendering=page, exit=77), dry_run=False)
    assert envelope.text == page.rstrip("\n") + "\n\n" + RETRY
    assert envelope.structured == Structured(
        rows=RUN_STEPS, truncated=b"null", outcome="refused", run_id=RUN_ID, dry_run=False
    )
    assert envelope.structured.encode().startswith(
        b'{"outcome":"refused","run_id":"' + RUN_ID.encode() + b'","dry_run":false,"rows":['
    )


def test_the_pin_gate_on_run_carries_an_outcome_and_no_run_id() -> None:
    terminal = outcome_row("refused", 77, run_id=None)
    envelope = envelope_of(tool("run"), answer(terminal=terminal, refusal="refused: version-pin-mismatch\n", exit=77))
    assert envelope.structured == Structured(rows=(), truncated=b"null", outcome="refused", dry_run=False)
    assert envelope.structured.encode() == b'{"outcome":"refused","dry_run":false,"rows":[],"truncated":null}'


def test_a_run_completing_says_outcome_first() -> None:
    envelope = envelope_of(tool("run"), answer(RUN_STEPS, outcome_row("completed", 0)))
    assert envelope.text == f"completed · run {RUN_ID}"
    assert envelope.is_error is False


def test_a_run_failing_is_an_error_carrying_its_outcome() -> None:
    envelope = envelope_of(tool("run"), answer(RUN_STEPS, outcome_row("failed", 1, dry_run=True), exit=1))
    assert envelope.text == f"failed · dry-run · run {RUN_ID}"
    assert envelope.is_error is True
    assert envelope.structured is not None and envelope.structured.dry_run is True


def test_a_run_that_lost_the_store_before_it_began_reads_its_outcome_off_the_exit_code() -> None:
    envelope = envelope_of(tool("run"), answer(terminal=None, exit=75), dry_run=True)
    assert envelope.text == "failed · dry-run"
    assert envelope.structured == Structured(rows=(), truncated=b"null", outcome="failed", dry_run=True)
    assert envelope.is_error is True


def test_a_usage_error_is_a_protocol_error_carrying_the_commands_sentence() -> None:
    usage = 'hyper provider: no Provider named "nope"\n  hyper providers lists them\n'
    with pytest.raises(ProtocolError) as declined:
        envelope_of(tool("provider"), answer(terminal=None, usage=usage, exit=2))
    assert declined.value.message == usage.rstrip("\n")


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("provider", answer(terminal=None, exit=2)),
        ("providers", answer(terminal=None, exit=130)),
        ("providers", answer(terminal=None, exit=3)),
        ("providers", answer(terminal=None, exit=0)),
        ("providers", answer(PROVIDERS, terminal=None, exit=0)),
        ("providers", answer(terminal=None, exit=77)),
        ("check", answer(PROBLEMS, exit=1)),
        ("review", answer()),
        ("run", answer(terminal=b'{"type":"outcome","outcome":"completed"}')),
        ("providers", answer(terminal=b'{"type":"result"}')),
        ("providers", answer((b"[1]",))),
    ],
)
def test_a_fault_in_the_server_is_a_protocol_error_never_an_envelope(tool: str, given: object) -> None:
    with pytest.raises(ProtocolError, match="fault in this server"):
        envelope_of(TABLE.named(tool), given)  # type: ignore[arg-type]


def test_review_answers_with_its_page_on_both_channels() -> None:
    page = "procedures/deploy.yaml\n  1 │ kind: procedure\n\nAUTHORITY\n"
    rows = (row(type="artefact", kind="procedure", path="procedures/deploy.yaml"),)
    envelope = envelope_of(tool("review"), answer(rows, rendering=page))
    assert envelope.text == page
    assert envelope.structured is not None and envelope.structured.rendering == page
    assert envelope.structured.encode().startswith(b'{"rendering":')


def test_runs_and_records_say_where_the_record_lives_even_when_empty() -> None:
    assert envelope_of(tool("runs"), answer()).text == "no rows\n\n" + RECORD_LOCATION
    records = (row(type="record", ordinal=1),)
    assert envelope_of(tool("records"), answer(records)).text == "1 Record\n\n" + RECORD_LOCATION


def test_a_cut_listing_says_so_and_its_hint_names_arguments() -> None:
    marker = b'{"axis":"time","returned":2,"dropped":4,"hint":"narrow with --since or --target"}'
    runs = (row(type="run", id="a"), row(type="run", id="b"))
    envelope = envelope_of(tool("runs"), answer(runs, b'{"type":"result","truncated":' + marker + b"}"))
    assert envelope.text.startswith("2 Runs, truncated\n\n")
    assert envelope.structured is not None
    assert envelope.structured.truncated == (
        b'{"axis":"time","returned":2,"dropped":4,"hint":"narrow with `since` or `target`"}'
    )
    kinds = b'{"type":"result","truncated":{"axis":"time","returned":1,"dropped":1,"hint":"narrow with --kind"}}'
    changed = envelope_of(tool("changes"), answer((row(type="window"),), kinds))
    assert changed.structured is not None
    assert b"narrow with `record_kind`" in changed.structured.truncated


def test_a_hint_already_in_arguments_passes_unchanged() -> None:
    marker = b'{"axis":"identity", "returned":2,"dropped":4,"hint":"narrow with `target`"}'
    envelope = envelope_of(
        tool("records"), answer((row(type="record"),), b'{"type":"result","truncated":' + marker + b"}")
    )
    assert envelope.structured is not None and envelope.structured.truncated == marker


def test_a_bare_true_is_a_cut_namespace_listing() -> None:
    envelope = envelope_of(tool("providers"), answer(PROVIDERS, b'{"type":"result","truncated":true}'))
    assert envelope.text == "2 Providers, truncated"


@pytest.mark.parametrize("written", [b"true", b"false", b"null"])
def test_a_scalar_truncated_travels_as_the_token_the_command_wrote(written: bytes) -> None:
    terminal = b'{"type":"result", "truncated" :  ' + written + b" }"
    envelope = envelope_of(tool("providers"), answer(PROVIDERS, terminal))
    assert envelope.structured is not None and envelope.structured.truncated == written


def test_a_terminal_row_without_truncated_is_a_fault() -> None:
    with pytest.raises(ProtocolError, match=r"carries no truncated, which is a fault in this server"):
        envelope_of(tool("providers"), answer(PROVIDERS, b'{"type":"result","truncated_":false}'))


def test_the_summary_counts_each_type_in_first_appearance_order() -> None:
    kinds = ["entry", "provenance", "step", "provenance", "code", "code", "novel"]
    assert summary_line(kinds, False) == "1 Journal entry, 2 Provenance rows, 1 Step, 2 code facts, 1 novel"
    assert summary_line(["novel", "novel"], True) == "2 novels, truncated"
    assert summary_line([], True) == "no rows"


def test_the_golden_layout_byte_for_byte() -> None:
    envelope = Envelope(
        (TextBlock("completed · run 1 <a> & \u2028"),),
        Structured(rows=(b'{"type":"step"}', b'{"type":"provenance"}'), truncated=b"null",
                   outcome="completed", run_id="1", dry_run=False),
        False,
    )  # fmt: skip
    assert render_envelope_golden(envelope) == (
        "{\n"
        '  "content": [\n'
        '    {"type":"text","text":"completed · run 1 <a> & \\u2028"}\n'
        "  ],\n"
        '  "structuredContent": {\n'
        '    "outcome": "completed",\n'
        '    "run_id": "1",\n'
        '    "dry_run": false,\n'
        '    "rows": [\n'
        '      {"type":"step"},\n'
        '      {"type":"provenance"}\n'
        "    ],\n"
        '    "truncated": null\n'
        "  },\n"
        '  "isError": false\n'
        "}\n"
    )
    absent = Envelope((TextBlock("refused"),), None, True)
    assert render_envelope_golden(absent) == (
        '{\n  "content": [\n    {"type":"text","text":"refused"}\n  ],\n  "isError": true\n}\n'
    )


def test_an_envelope_read_back_off_the_wire_is_the_one_written() -> None:
    for envelope in (
        envelope_of(tool("providers"), answer(PROVIDERS)),
        envelope_of(tool("run"), answer(RUN_STEPS, outcome_row("completed", 0))),
        envelope_of(tool("runs"), answer(terminal=None, refusal=STORE_ABSENT, exit=77)),
        envelope_of(tool("review"), answer(rendering="page\n")),
    ):
        assert envelope_from_wire(envelope.encode()) == envelope


def test_a_structured_half_with_a_member_this_surface_never_writes_is_refused() -> None:
    with pytest.raises(ValueError, match="never writes"):
        envelope_from_wire(b'{"content":[],"structuredContent":{"rows":[],"truncated":false,"extra":1}}')


REFERENCE_RETRY = (
    "a verbatim retry refuses identically: no argument to this tool, and no flag anywhere, overrides a "
    "guardrail (ADR-0001) — the way past is the edit or the command named above."
)


def _answer_behind(tool: str, golden: str) -> object:
    """The Answer a command would have handed over for a reference golden."""
    read = json.loads(golden)
    lines = golden.split("\n")
    rows = []
    if '    "rows": [' in lines:
        for line in lines[lines.index('    "rows": [') + 1 :]:
            if line.strip() in ("],", "]"):
                break
            rows.append(line.strip().rstrip(",").encode())
    text = read["content"][0]["text"]
    half = read.get("structuredContent")
    terminal = None
    if half is not None and "outcome" in half:
        terminal = outcome_row(half["outcome"], 0, dry_run=half["dry_run"], run_id=half.get("run_id"))
    elif half is not None:
        terminal = b'{"type":"result","truncated":' + orjson.dumps(half["truncated"]) + b"}"
    refused = REFERENCE_RETRY in text
    rendering = text if tool == "review" else text.split("\n\n", 1)[1] if tool == "check" and "\n\n" in text else ""
    return answer(
        tuple(rows),
        terminal,
        rendering=rendering,
        refusal=text.replace("\n\n" + REFERENCE_RETRY, "") if refused else "",
        exit=77 if refused else 1 if read["isError"] else 0,
    )


@pytest.mark.parametrize("path", sorted(glob.glob(str(CORPUS / "*" / "*" / "envelope.golden"))))
def test_the_references_goldens_are_rendered_byte_for_byte(path: str) -> None:
    tool = Path(path).parent.parent.name
    golden = Path(path).read_text(encoding="utf-8")
    envelope = envelope_of(TABLE.named(tool), _answer_behind(tool, golden))  # type: ignore[arg-type]
    rendered = render_envelope_golden(envelope_from_wire(envelope.encode())).replace(RETRY, REFERENCE_RETRY)
    assert rendered == golden
