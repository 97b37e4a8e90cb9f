import datetime as dt

import pytest

from hyper.cli.invocation import parse, read_since
from hyper.cli.tree import COMMANDS
from hyper.core.faults import UsageFault


def fault(name: str, *args: str) -> str:
    with pytest.raises(UsageFault) as caught:
        parse(COMMANDS[name], args, no_color_env=False)
    return caught.value.text


def test_globals_are_read_anywhere_after_the_command_word() -> None:
    inv = parse(COMMANDS["operation"], ["widget", "--json", "delete", "--repo-dir", "x"], False)
    assert inv.positional == ("widget", "delete")
    assert inv.as_json and inv.repo_dir == "x"
    assert parse(COMMANDS["providers"], ["--repo-dir=y"], False).repo_dir == "y"


def test_double_dash_ends_flags_and_a_bare_hyphen_is_positional() -> None:
    inv = parse(COMMANDS["provider"], ["--", "--json"], False)
    assert inv.positional == ("--json",) and not inv.as_json
    assert parse(COMMANDS["provider"], ["-"], False).positional == ("-",)


def test_an_unknown_flag_lists_what_the_command_takes() -> None:
    assert fault("records", "--help") == (
        "hyper records: unknown flag --help\n"
        "  records takes --limit, --since, --target, --definition, --name and --history,"
        " past --json, --repo-dir and --no-color\n"
    )
    assert fault("check", "-h") == (
        "hyper check: unknown flag -h\n  check takes no flags of its own, past --json, --repo-dir and --no-color\n"
    )


def test_a_flag_another_command_takes_is_unknown_here() -> None:
    assert fault("provider", "--limit", "2", "widget").startswith("hyper provider: unknown flag --limit\n")
    assert fault("compact", "--dry-run").startswith("hyper compact: unknown flag --dry-run\n")


def test_limit_must_be_a_positive_integer() -> None:
    assert fault("providers", "--limit", "0") == "hyper providers: --limit 0: want a positive integer\n"
    assert fault("targets", "--limit=x") == "hyper targets: --limit x: want a positive integer\n"
    assert fault("targets", "--limit") == "hyper targets: --limit requires a value\n"
    assert fault("targets", "--repo-dir") == "hyper targets: --repo-dir requires a value\n"
    inv = parse(COMMANDS["providers"], ["--limit=3"], False)
    assert (inv.limit, inv.limit_named) == (3, True)
    assert (parse(COMMANDS["providers"], [], False).limit, parse(COMMANDS["check"], [], False).limit) == (50, 0)


def test_arity_faults_name_what_the_command_takes() -> None:
    assert fault("provider") == "hyper provider: names no Provider\n"
    assert fault("provider", "a", "b") == "hyper provider: takes one Provider, got 2\n"
    assert fault("operation", "a") == "hyper operation: takes one Provider and one Operation, got 1\n"
    assert fault("operation") == "hyper operation: names no Provider and no Operation\n"
    assert fault("providers", "shell") == "hyper providers: takes no positional argument, got shell\n"
    assert parse(COMMANDS["check"], ["a", "b", "c"], False).positional == ("a", "b", "c")


def test_closed_values_are_refused_where_the_flag_is_read() -> None:
    assert fault("runs", "--outcome", "open") == "hyper runs: --outcome open: want completed, refused or failed\n"
    assert fault("changes", "--kind", "tombstone") == "hyper changes: --kind tombstone: want asset or observation\n"
    assert fault("runs", "--since", "7d").startswith("hyper runs: --since 7d: want an RFC 3339")


def test_between_takes_two_values() -> None:
    inv = parse(COMMANDS["changes"], ["--between", "a", "b"], False)
    assert inv.between == ("a", "b")
    assert fault("changes", "--between", "a").startswith("hyper changes: --between a:")
    assert fault("changes", "--between=a").startswith("hyper changes: --between takes two")


def test_probe_inputs_repeat_and_keep_their_order() -> None:
    inv = parse(COMMANDS["probe"], ["--input", "b=2", "--input=a=x=y", "p", "o"], False)
    assert inv.inputs == (("b", "2"), ("a", "x=y"))
    assert fault("probe", "--input", "novalue", "p", "o") == "hyper probe: --input novalue: want <name>=<value>\n"


def test_store_takes_the_one_verb_init() -> None:
    assert parse(COMMANDS["store"], ["init"], False).positional == ("init",)
    assert fault("store") == "hyper store: names no verb\n  known verbs: init\n"
    assert fault("store", "push") == 'hyper store: unknown verb "push"\n  known verbs: init\n'
    assert fault("store", "init", "now") == "hyper store init: takes no positional argument, got now\n"


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2026-08-04T09:12:00Z", dt.datetime(2026, 8, 4, 9, 12, tzinfo=dt.UTC)),
        ("2026-08-04T09:12:00.221Z", dt.datetime(2026, 8, 4, 9, 12, 0, 221000, tzinfo=dt.UTC)),
        ("2026-08-04T11:12:00+02:00", dt.datetime(2026, 8, 4, 9, 12, tzinfo=dt.UTC)),
    ],
)
def test_since_reads_rfc3339_with_an_offset(text: str, instant: dt.datetime) -> None:
    assert read_since(text) == instant


@pytest.mark.parametrize(
    "text",
    ["2026-08-04", "2026-08-04T09:12:00", "2026-08-04 09:12:00Z", "2026-13-04T09:12:00Z", "yesterday", "7d", ""],
)
def test_since_refuses_everything_else(text: str) -> None:
    assert read_since(text) is None


def test_run_refuses_target_by_name() -> None:
    for args in (("--target", "prod", "deploy"), ("--target=prod", "deploy")):
        text = fault("run", *args)
        assert text.startswith("hyper run: --target is not a flag of run")
        assert len(text.splitlines()) == 2


def test_since_digits_are_ascii() -> None:
    assert read_since("２026-08-04T09:12:00Z") is None
