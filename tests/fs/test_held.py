"""Files held to the repository (ADR 0011): each repro of issue #12 §1, against real links,
a real FIFO and a real device.

Reading: resolved first, a link inside reads as its target, one leading out does not
read; only a regular file, and no more than the cap. Writing: whole or not at all, a link
replaced rather than written through, a directory leading out refused.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hyper.cli import commands
from hyper.cli.main import main
from hyper.core.faults import Unheld
from hyper.fs import read
from hyper.fs.read import CAP, attempt_held, open_held, read_directory, read_held, resolve_held
from hyper.fs.write import replace_held, write_all
from tests.check.repos import write
from tests.check.test_command import FACTS, QUICKSTART, hyper
from tests.fixed import fixed_process


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(commands.BUILT, "check", "hyper.cli.commands.check")


def _repo(tmp_path: Path) -> Path:
    return write(tmp_path / "inside", QUICKSTART)


def test_a_link_inside_the_repository_reads_as_its_target(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "shared").mkdir()
    (root / "shared" / "x.yaml").write_bytes(b"a: 1\n")
    (root / "providers").mkdir()
    (root / "providers" / "x.yaml").symlink_to(root / "shared" / "x.yaml")
    assert read_held(str(root), "providers/x.yaml") == b"a: 1\n"


def test_a_path_resolves_as_the_whole_path_would_wherever_its_links_are(tmp_path: Path) -> None:
    """``read_held`` proves most paths link-free one component at a time (hyper/fs/read.py);
    each way a link or a ``..`` can sit in a path answers as resolving the whole path does."""
    real = _repo(tmp_path)
    linked_root = tmp_path / "linked-root"
    linked_root.symlink_to(real)
    (real / "shared").mkdir()
    (real / "shared" / "x.yaml").write_bytes(b"a: 1\n")
    (real / "providers").mkdir()
    (real / "providers" / "shared").symlink_to(real / "shared")  # a directory link inside
    (tmp_path / "away").mkdir()
    (tmp_path / "away" / "x.yaml").write_bytes(b"secret: 1\n")
    (real / "providers" / "away").symlink_to(tmp_path / "away")  # a directory link leading out
    for root in (real, linked_root):
        assert read_held(str(root), "shared/x.yaml") == b"a: 1\n"
        assert read_held(str(root), "providers/shared/x.yaml") == b"a: 1\n"
        assert read_held(str(root), "providers/../shared/x.yaml") == b"a: 1\n"
        with pytest.raises(Unheld, match="outside the repository"):
            read_held(str(root), "providers/away/x.yaml")
        with pytest.raises(Unheld, match="outside the repository"):
            read_held(str(root), "../away/x.yaml")
        with pytest.raises(FileNotFoundError):
            read_held(str(root), "providers/missing.yaml")
        with pytest.raises(NotADirectoryError):
            read_held(str(root), "shared/x.yaml/deeper")


def test_a_link_leading_out_a_fifo_and_a_device_are_not_read(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (tmp_path / "secret").write_text("root:x:0:0\n")
    (root / "providers").mkdir()
    (root / "providers" / "out.yaml").symlink_to(tmp_path / "secret")
    (root / "providers" / "zero.yaml").symlink_to("/dev/zero")
    os.mkfifo(root / "providers" / "fifo.yaml")
    with pytest.raises(Unheld, match="outside the repository"):
        read_held(str(root), "providers/out.yaml")
    with pytest.raises(Unheld, match="outside the repository"):  # /dev is outside too
        read_held(str(root), "providers/zero.yaml")
    with pytest.raises(Unheld, match="FIFO"):
        read_held(str(root), "providers/fifo.yaml")  # and returns at once rather than waiting


def test_a_device_inside_the_tree_is_not_read(tmp_path: Path) -> None:
    root = Path("/dev")
    with pytest.raises(Unheld, match="device"):
        read_held(str(root), "zero")


def test_the_cap_is_the_manifest_cap_and_a_file_at_it_reads(tmp_path: Path) -> None:
    assert CAP == 4194304
    root = _repo(tmp_path)
    (root / "at.yaml").write_bytes(b"#" * CAP)
    (root / "over.yaml").write_bytes(b"#" * (CAP + 1))
    assert len(read_held(str(root), "at.yaml")) == CAP
    with pytest.raises(Unheld, match="larger than"):
        read_held(str(root), "over.yaml")


def test_check_reports_each_unheld_file_as_a_problem_and_exits(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "providers").mkdir()
    (root / "providers" / "z.yaml").symlink_to("/dev/zero")
    os.mkfifo(root / "providers" / "f.yaml")
    (root / "targets" / "passwd.yaml").symlink_to("/etc/passwd")
    code, out, err = hyper(root)
    assert code == 1, err
    assert "Traceback" not in err
    for name, reason in (
        ("providers/z.yaml", "a link leading outside the repository"),
        ("providers/f.yaml", "it is a FIFO"),
        ("targets/passwd.yaml", "a link leading outside the repository"),
    ):
        line = next(line for line in out.splitlines() if line.startswith(name))
        assert reason in line, line


def test_a_path_named_through_a_link_out_is_outside_the_repository(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "targets" / "etclink").symlink_to("/etc")
    refused = "hyper check: targets/etclink/passwd: outside the repository\n"
    assert hyper(root, "targets/etclink/passwd") == (2, "", refused)
    (root / "targets" / "here.yaml").symlink_to(root / "targets" / "local.yaml")
    assert hyper(root, "targets/here.yaml")[0] == 1  # a link inside is read: it is a second "local"


def test_review_does_not_print_an_artefact_linked_out(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (tmp_path / "elsewhere.yaml").write_text("kind: target-declaration\ntarget: leaked-secret-name\n")
    (root / "targets" / "leak.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["review", "--repo-dir", str(root), "targets/leak.yaml"], out, err, fixed_process(str(root), {}), FACTS)
    assert code == 1, err.getvalue()
    assert b"leaked-secret-name" not in out.getvalue() + err.getvalue()
    assert b"outside the repository" in out.getvalue()


def test_a_write_replaces_a_link_and_leaves_its_target_alone(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    (root / "providers").mkdir()
    (root / "providers" / "x.yaml").symlink_to(victim)
    (root / "providers" / "dangling.yaml").symlink_to(tmp_path / "created-outside")
    replace_held(str(root), "providers/x.yaml", b"new\n")
    replace_held(str(root), "providers/dangling.yaml", b"new\n")
    assert victim.read_text() == "mine\n"
    assert not (tmp_path / "created-outside").exists()
    assert not (root / "providers" / "x.yaml").is_symlink()
    assert (root / "providers" / "x.yaml").read_bytes() == b"new\n"
    assert sorted(p.name for p in (root / "providers").iterdir()) == ["dangling.yaml", "x.yaml"]  # no temporary


def test_a_write_into_a_directory_linked_out_is_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (tmp_path / "other").mkdir()
    (root / "providers").symlink_to(tmp_path / "other")
    with pytest.raises(Unheld, match="outside the repository"):
        replace_held(str(root), "providers/x.yaml", b"new\n")
    assert list((tmp_path / "other").iterdir()) == []


def test_a_short_write_is_continued(tmp_path: Path) -> None:
    reading, writing = os.pipe()
    data = os.urandom(1 << 20)  # past a pipe's capacity: os.write answers short while it is read
    received = bytearray()
    import threading

    def drain() -> None:
        while chunk := os.read(reading, 65536):
            received.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    write_all(writing, data)
    os.close(writing)
    reader.join()
    os.close(reading)
    assert bytes(received) == data


def test_a_secret_sink_reached_through_a_link_into_the_tree_is_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    link = tmp_path / "l"
    link.symlink_to(root)
    via_repo_dir = tmp_path / "repo-link"
    via_repo_dir.symlink_to(root)
    for repo_dir, sink in ((root, link / "sink"), (via_repo_dir, root / "sink")):
        out, err = io.BytesIO(), io.BytesIO()
        argv = ["run", "--repo-dir", str(repo_dir), "--secret-out", str(sink), "say-hello"]
        code = main(argv, out, err, fixed_process(str(tmp_path), {}), FACTS)
        assert code == 2
        assert err.getvalue().decode().startswith(f"hyper run: --secret-out {sink}: that path is inside the repository")
        assert not (root / "sink").exists()


def _swap_for_link(path: Path, target: Path) -> None:
    """What an attacker does between hyper's resolving a path and its opening it."""
    path.rename(path.with_name(path.name + ".was"))
    path.symlink_to(target)


def test_a_last_component_swapped_for_a_link_after_resolving_is_not_followed(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "providers").mkdir()
    (root / "providers" / "x.yaml").write_bytes(b"a: 1\n")
    outside = tmp_path / "secret.yaml"
    outside.write_bytes(b"password: hunter2\n")
    real = resolve_held(str(root), str(root / "providers" / "x.yaml"))
    _swap_for_link(root / "providers" / "x.yaml", outside)
    with pytest.raises(Unheld, match="swapped for a link leading elsewhere"):
        open_held(str(root), real, os.O_RDONLY)


def test_a_directory_swapped_for_a_link_after_resolving_is_caught_at_the_opened_file(tmp_path: Path) -> None:
    """The swap lands before the ``stat`` too, so the inode ``read_held`` compares against is
    the outside one: only the opened file's own location tells."""
    root = _repo(tmp_path)
    (root / "providers").mkdir()
    (root / "providers" / "x.yaml").write_bytes(b"a: 1\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.yaml").write_bytes(b"password: hunter2\n")
    real = resolve_held(str(root), str(root / "providers" / "x.yaml"))
    _swap_for_link(root / "providers", elsewhere)
    with pytest.raises(Unheld, match="swapped for a link leading elsewhere"):
        open_held(str(root), real, os.O_RDONLY)
    directory = resolve_held(str(root), str(root / "targets"))
    _swap_for_link(root / "targets", elsewhere)
    with pytest.raises(Unheld, match="swapped for a link leading elsewhere"):
        open_held(str(root), directory, os.O_RDONLY | os.O_DIRECTORY)


def test_a_file_replaced_between_its_stat_and_its_open_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replacement lies inside, but it is not the file that was resolved and looked at."""
    root = _repo(tmp_path)
    target = root / "targets" / "local.yaml"
    replacement = target.with_name("local.yaml.new")
    replacement.write_bytes(b"kind: target-declaration\n")
    opening = read.open_held

    def swapped_first(at: str, real: str, flags: int) -> int:
        replacement.rename(target)
        return opening(at, real, flags)

    monkeypatch.setattr(read, "open_held", swapped_first)
    with pytest.raises(Unheld, match="replaced by another file while it was being opened"):
        read_held(str(root), "targets/local.yaml")


def _answers(listed: list[tuple[str, bytes | OSError]]) -> list[tuple[str, object]]:
    """Each entry's bytes, or its error's type and reason: what a loader reports of it."""
    return [(name, data if isinstance(data, bytes) else (type(data), data.strerror)) for name, data in listed]


def _every_kind_of_entry(tmp_path: Path) -> Path:
    root = _repo(tmp_path)
    (tmp_path / "secret").write_text("root:x:0:0\n")
    (root / "shared").mkdir()
    (root / "shared" / "x.yaml").write_bytes(b"a: 1\n")
    providers = root / "providers"
    providers.mkdir()
    (providers / "plain.yaml").write_bytes(b"b: 2\n")
    (providers / "empty.yaml").write_bytes(b"")
    (providers / "inside.yaml").symlink_to(root / "shared" / "x.yaml")
    (providers / "out.yaml").symlink_to(tmp_path / "secret")
    (providers / "zero.yaml").symlink_to("/dev/zero")
    (providers / "dangling.yaml").symlink_to(root / "missing.yaml")
    (providers / "dir.yaml").symlink_to(root / "shared")
    (providers / "nested.yaml").mkdir()  # a directory is no entry at all
    (providers / "skipped.yml").write_bytes(b"c: 3\n")
    (providers / "over.yaml").write_bytes(b"#" * (CAP + 1))
    os.mkfifo(providers / "fifo.yaml")
    return root


def test_a_directory_read_answers_for_each_entry_what_reading_it_alone_answers(tmp_path: Path) -> None:
    """``read_directory`` opens plain files relative to the held directory, and hands every
    other entry to ``read_held``: either way each answer is the one ``read_held`` gives."""
    root = _every_kind_of_entry(tmp_path)
    listed = read_directory(str(root), "providers", lambda name: name.endswith(".yaml"))
    assert [name for name, _ in listed] == sorted(
        name for name in os.listdir(root / "providers") if name.endswith(".yaml") and name != "nested.yaml"
    )
    alone = [(name, attempt_held(str(root), f"providers/{name}")) for name, _ in listed]
    assert _answers(listed) == _answers(alone)
    answers = dict(_answers(listed))
    assert answers["plain.yaml"] == b"b: 2\n"
    assert answers["empty.yaml"] == b""
    assert answers["inside.yaml"] == b"a: 1\n"
    assert "outside the repository" in str(answers["out.yaml"])
    assert "FIFO" in str(answers["fifo.yaml"])
    assert "larger than" in str(answers["over.yaml"])


def test_a_linked_directory_reads_as_its_entries_would_alone(tmp_path: Path) -> None:
    """A directory that is a link — inside or out — is not held open: each entry is read by
    its whole path, so one leading out reads as nothing."""
    root = _every_kind_of_entry(tmp_path)
    (tmp_path / "away").mkdir()
    (tmp_path / "away" / "x.yaml").write_bytes(b"secret: 1\n")
    (root / "targets-away").symlink_to(tmp_path / "away")
    (root / "linked").symlink_to(root / "providers")
    away = read_directory(str(root), "targets-away", lambda name: True)
    assert [(name, type(data)) for name, data in away] == [("x.yaml", Unheld)]
    linked = read_directory(str(root), "linked", lambda name: name.endswith(".yaml"))
    held = read_directory(str(root), "providers", lambda name: name.endswith(".yaml"))
    assert _answers(linked) == _answers(held)


def test_a_directory_that_cannot_be_listed_raises_as_listing_it_would(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "file").write_bytes(b"")
    with pytest.raises(FileNotFoundError):
        read_directory(str(root), "missing", lambda name: True)
    with pytest.raises(NotADirectoryError):
        read_directory(str(root), "file", lambda name: True)


def test_a_listed_file_swapped_for_a_link_before_it_is_opened_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path)
    (root / "providers").mkdir()
    (root / "providers" / "x.yaml").write_bytes(b"a: 1\n")
    outside = tmp_path / "secret.yaml"
    outside.write_bytes(b"password: hunter2\n")
    scanning = os.scandir

    def swapped_after_listing(path: int) -> contextlib.nullcontext[Iterator[os.DirEntry[str]]]:
        entries = list(scanning(path))
        _swap_for_link(root / "providers" / "x.yaml", outside)
        return contextlib.nullcontext(iter(entries))

    monkeypatch.setattr(os, "scandir", swapped_after_listing)
    [(name, data)] = read_directory(str(root), "providers", lambda name: name == "x.yaml")
    assert name == "x.yaml"
    assert isinstance(data, Unheld)
    assert "swapped for a link leading elsewhere" in str(data)
