"""Arguments read strictly into the command line each tool's command takes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyper_mcp.decode import decode
from hyper_mcp.errors import ProtocolError
from tests.depth import examples
from tests.mcp.fake_commands import TABLE

ARGV = [
    ("providers", "{}", ["providers"]),
    ("providers", "", ["providers"]),
    ("providers", "null", ["providers"]),
    ("provider", '{"name":"widget"}', ["provider", "--", "widget"]),
    ("provider", '{"name":"--json"}', ["provider", "--", "--json"]),
    ("operation", '{"provider":"widget","operation":"list_widgets"}', ["operation", "--", "widget", "list_widgets"]),
    ("targets", "{}", ["targets"]),
    ("check", "{}", ["check"]),
    ("check", '{"paths":null}', ["check"]),
    ("check", '{"paths":[]}', ["check"]),
    ("check", '{"paths":["hyper.yaml","--json"]}', ["check", "--", "hyper.yaml", "--json"]),
    ("review", '{"artefact":"procedures/deploy.yaml"}', ["review", "--", "procedures/deploy.yaml"]),
    ("run", '{"procedure":"deploy"}', ["run", "--", "deploy"]),
    ("run", '{"procedure":"deploy","dry_run":false}', ["run", "--", "deploy"]),
    (
        "run",
        '{"procedure":"read-session","dry_run":true,"secret_sink":"/run/secrets/session-token"}',
        ["run", "--dry-run", "--secret-out", "/run/secrets/session-token", "--", "read-session"],
    ),
    ("run", '{"procedure":"--dry-run","secret_sink":null}', ["run", "--", "--dry-run"]),
    (
        "probe",
        '{"provider":"metrics","operation":"window","inputs":{"minutes":15,"host":"metrics.hyper.dev"}}',
        ["probe", "--input", "host=metrics.hyper.dev", "--input", "minutes=15", "--", "metrics", "window"],
    ),
    (
        "probe",
        '{"provider":"p","operation":"o","inputs":{"b":1.0,"a":true,"c":"x=y","d":12345678901234567890123,"e":1e2}}',
        ["probe", "--input", "a=true", "--input", "b=1.0", "--input", "c=x=y", "--input",
         "d=12345678901234567890123", "--input", "e=1e2", "--", "p", "o"],
    ),
    ("probe", '{"provider":"p","operation":"o","inputs":{}}', ["probe", "--", "p", "o"]),
    ("probe", '{"provider":"p","operation":"o","response":"samples/r.json"}',
     ["probe", "--response", "samples/r.json", "--", "p", "o"]),
    ("probe", '{"provider":"p","operation":"o","response":""}', ["probe", "--", "p", "o"]),
    ("runs", "{}", ["runs"]),
    (
        "runs",
        '{"since":"2026-08-04T09:12:00Z","procedure":"publish-preview","target":"local","outcome":"failed","limit":2}',
        ["runs", "--since", "2026-08-04T09:12:00Z", "--procedure", "publish-preview", "--target", "local",
         "--outcome", "failed", "--limit", "2"],
    ),
    ("runs", '{"limit":2,"outcome":"open","procedure":"--json"}',
     ["runs", "--procedure", "--json", "--outcome", "open", "--limit", "2"]),
    ("runs", '{"limit":0}', ["runs", "--limit", "0"]),
    ("runs", '{"limit":-3}', ["runs", "--limit", "-3"]),
    ("run_show", '{"run_id":"0199"}', ["show", "--", "0199"]),
    ("run_show", '{"run_id":"0199","expansion":true}', ["show", "--expansion", "--", "0199"]),
    ("changes", "{}", ["changes"]),
    ("changes", '{"procedure":"publish-preview","target":"local"}',
     ["changes", "--target", "local", "--", "publish-preview"]),
    (
        "changes",
        '{"limit":3,"record_kind":"asset","target":"t","between":["a","b"],"since":"s","procedure":"p"}',
        ["changes", "--since", "s", "--between", "a", "b", "--target", "t", "--kind", "asset", "--limit", "3",
         "--", "p"],
    ),
    ("changes", '{"between":null}', ["changes"]),
    (
        "changes",
        '{"target":"t","subject":"r","between":["a","b"],"since":"s"}',
        ["changes", "--since", "s", "--between", "a", "b", "--subject", "r", "--target", "t"],
    ),
    ("records", "{}", ["records"]),
    (
        "records",
        '{"since":"s","history":true,"name":"n","definition":"d","target":"t","limit":4}',
        ["records", "--target", "t", "--definition", "d", "--name", "n", "--history", "--since", "s",
         "--limit", "4"],
    ),
    ("records", '{"since":"s"}', ["records", "--since", "s"]),
    ("project", "{}", ["project"]),
]  # fmt: skip

REFUSED = [
    ("providers", '{"limit":10}', 'providers: arguments: this tool takes no argument named "limit"'),
    ("targets", '{"Name":"x"}', 'targets: arguments: this tool takes no argument named "Name"'),
    ("provider", "{}", "provider: name is empty, and an empty string names no Provider"),
    ("provider", '{"name":null}', "provider: name is empty, and an empty string names no Provider"),
    ("provider", '{"name":""}', "provider: name is empty, and an empty string names no Provider"),
    ("provider", '{"name":7}', "provider: arguments: name must be a string, not a number"),
    ("provider", "[]", "provider: arguments: must be a JSON object, not an array"),
    ("provider", "{", "provider: arguments: not one JSON value"),
    ("operation", '{"operation":""}', "operation: provider is empty, and an empty string names no Provider"),
    ("operation", '{"provider":"p"}', "operation: operation is empty, and an empty string names no Operation"),
    ("check", '{"paths":[""]}', "check: paths[0] is empty, and an empty string names no path"),
    ("check", '{"paths":["a",null]}', "check: paths[1] is empty, and an empty string names no path"),
    ("check", '{"paths":["a",1]}', "check: arguments: paths[1] must be a string, not a number"),
    ("check", '{"paths":"a"}', "check: arguments: paths must be an array of strings, not a string"),
    ("review", "{}", "review: artefact is empty, and an empty string names no artefact"),
    ("run", '{"secret_sink":""}', "run: procedure is empty, and an empty string names no Procedure"),
    ("run", '{"procedure":"p","secret_sink":""}', "run: secret_sink is empty, and an empty string names no path"),
    ("run", '{"procedure":"p","dry_run":"yes"}', "run: arguments: dry_run must be a boolean, not a string"),
    ("run", '{"procedure":"p","definition":"d"}', 'run: arguments: this tool takes no argument named "definition"'),
    ("probe", '{"operation":"o"}', "probe: provider is empty, and an empty string names no Provider"),
    ("probe", '{"provider":"p"}', "probe: operation is empty, and an empty string names no Operation"),
    ("probe", '{"provider":"p","operation":"o","inputs":{"":1}}',
     "probe: inputs has a member named by the empty string, and an empty string names no input"),
    ("probe", '{"provider":"p","operation":"o","inputs":{"a=b":1}}',
     "probe: inputs a=b: an input name containing = cannot be written as one --input name=value pair, "
     "and that pair is how this tool passes an input on"),
    ("probe", '{"provider":"p","operation":"o","inputs":{"q":{"a": [1, 2.50]}}}',
     'probe: inputs q: {"a":[1,2.50]} cannot be an input\'s value; '
     "an input holds a single scalar — a string, a number or a boolean"),
    ("probe", '{"provider":"p","operation":"o","inputs":{"q":null}}',
     "probe: inputs q: null cannot be an input's value; "
     "an input holds a single scalar — a string, a number or a boolean"),
    ("probe", '{"provider":"p","operation":"o","inputs":[]}',
     "probe: arguments: inputs must be an object, not an array"),
    ("runs", '{"since":""}', "runs: since is empty, and an empty string names no instant"),
    ("runs", '{"outcome":""}', "runs: outcome is empty, and an empty string names no outcome"),
    ("runs", '{"limit":1.5}', "runs: arguments: limit must be a whole number that fits in 64 bits, not 1.5"),
    ("runs", '{"limit":1e2}', "runs: arguments: limit must be a whole number that fits in 64 bits, not 1e2"),
    ("runs", '{"limit":9223372036854775808}',
     "runs: arguments: limit must be a whole number that fits in 64 bits, not 9223372036854775808"),
    ("runs", '{"limit":"2"}', "runs: arguments: limit must be a whole number, not a string"),
    ("run_show", "{}", "run_show: run_id is empty, and an empty string names no Run"),
    ("changes", '{"procedure":""}', "changes: procedure is empty, and an empty string names no Procedure"),
    ("changes", '{"between":["a"]}',
     "changes: between needs exactly two Run ids, the baseline then the subject, and got 1: a window has two ends"),
    ("changes", '{"between":["a",""]}', "changes: between[1] is empty, and an empty string names no Run"),
    ("changes", '{"record_kind":""}', "changes: record_kind is empty, and an empty string names no Record type"),
    ("changes", '{"subject":""}', "changes: subject is empty, and an empty string names no Run"),
    ("records", '{"name":""}', "records: name is empty, and an empty string names no Record"),
    ("records", '{"definition":""}', "records: definition is empty, and an empty string names no Definition"),
    ("show", "{}", "show: this server has no tool by that name; tools/list names all thirteen"),
]  # fmt: skip


@pytest.mark.parametrize(("tool", "arguments", "argv"), ARGV)
def test_each_tool_builds_its_commands_line(tool: str, arguments: str, argv: list[str]) -> None:
    assert list(decode(TABLE, tool, arguments.encode()).argv) == argv


def test_every_tool_has_an_argv_case() -> None:
    assert {case[0] for case in ARGV} == {tool.name for tool in TABLE.tools}


@pytest.mark.parametrize(("tool", "arguments", "message"), REFUSED)
def test_a_malformed_call_is_refused_naming_the_tool(tool: str, arguments: str, message: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(TABLE, tool, arguments.encode())
    assert refused.value.message.startswith(message)


def test_the_first_fault_in_the_object_is_the_one_reported() -> None:
    with pytest.raises(ProtocolError, match='no argument named "zzz"'):
        decode(TABLE, "runs", b'{"zzz":1,"limit":"x"}')
    with pytest.raises(ProtocolError, match="limit must be"):
        decode(TABLE, "runs", b'{"limit":"x","zzz":1}')


def test_a_repeated_member_takes_its_last_value() -> None:
    assert decode(TABLE, "provider", b'{"name":"a","name":"b"}').argv == ("provider", "--", "b")
    # null on a required member leaves what it held, as the reference's decoder does
    assert decode(TABLE, "provider", b'{"name":"a","name":null}').argv == ("provider", "--", "a")


def test_only_run_reports_a_rehearsal() -> None:
    assert decode(TABLE, "run", b'{"procedure":"p","dry_run":true}').dry_run is True
    assert decode(TABLE, "run", b'{"procedure":"p"}').dry_run is False
    assert decode(TABLE, "providers", b"{}").dry_run is None


def test_an_escaped_lone_surrogate_is_replaced_not_passed_on() -> None:
    assert decode(TABLE, "provider", b'{"name":"a\\ud800b"}').argv == ("provider", "--", "a\ufffdb")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MEMBER_NAMES = st.sampled_from(
    ["name", "provider", "operation", "paths", "artefact", "procedure", "dry_run", "secret_sink", "response",
     "inputs", "since", "target", "outcome", "limit", "run_id", "expansion", "between", "record_kind",
     "definition", "history", "other", ""]
)  # fmt: skip
ARGUMENTS = JSON | st.dictionaries(MEMBER_NAMES, JSON, max_size=5)
TOOLS = st.sampled_from([tool.name for tool in TABLE.tools] + ["nope"])


@settings(max_examples=examples(400), deadline=None)
@given(tool=TOOLS, arguments=ARGUMENTS)
def test_any_json_is_a_command_line_or_a_protocol_error(tool: str, arguments: object) -> None:
    try:
        decoded = decode(TABLE, tool, json.dumps(arguments).encode())
    except ProtocolError as refused:
        assert refused.message.startswith(f"{tool}: ")
    else:
        assert decoded.argv and all(isinstance(part, str) for part in decoded.argv)


@settings(max_examples=examples(200), deadline=None)
@given(tool=TOOLS, raw=st.binary(max_size=64) | st.text(max_size=64).map(str.encode))
def test_any_bytes_are_a_command_line_or_a_protocol_error(tool: str, raw: bytes) -> None:
    try:
        decode(TABLE, tool, raw)
    except ProtocolError as refused:
        assert refused.message.startswith(f"{tool}: ")


def test_deep_nesting_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        decode(TABLE, "providers", b"[" * 100_000)
