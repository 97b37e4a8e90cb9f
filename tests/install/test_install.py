"""``hyper install`` beyond the corpus: the round trip with ``check``, a body cut short, the gate
and the grammar standing before any dial, and the file's bytes."""

from __future__ import annotations

import hashlib
import io
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import pytest

from harness.serve import Served, serving
from hyper.artefact.repository import Repository, load_repository
from hyper.check import codes
from hyper.check.repository import check_repository
from hyper.cli.main import main
from hyper.core.process import Dialer
from hyper.core.version import BuildFacts
from tests.check.repos import DECLARATION, DEMO, write
from tests.fixed import NOW, fixed_process

FACTS = BuildFacts(version="1.4.0")
MANIFEST_PATH = "providers/cloudflare-dns.yaml"
MANIFEST = cast(str, DEMO[MANIFEST_PATH])
REF = "https://providers.example.com/acme/cloudflare-dns.yaml"
WITHOUT_IT = {path: text for path, text in DEMO.items() if not path.startswith(("providers/", "procedures/"))}


def published(body: str, name: str = "cloudflare-dns.yaml") -> Served:
    listing = f"{'0' * 64}  other.yaml\n{hashlib.sha256(body.encode()).hexdigest()}  {name}\n"
    return Served(404, answers=(Served(200, body=body), Served(200, body=listing)))


@contextmanager
def host(answer: Served) -> Iterator[Dialer]:
    problems: list[str] = []
    with serving({"providers.example.com": answer}, NOW, problems) as dial:
        yield dial
    assert problems == []


def install(root: Path, dial: Dialer, *argv: str) -> tuple[int, str, str]:
    process = fixed_process(str(root), {"HYPER_REPO_DIR": str(root)})._replace(dial=dial)
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["install", *argv], out, err, process, FACTS)
    return code, out.getvalue().decode(), err.getvalue().decode()


def checked(root: Path) -> list[str]:
    repo = load_repository(str(root))
    assert isinstance(repo, Repository)
    return [problem.error_code for problem in check_repository(repo)]


def never(host: str, port: int, timeout: float | None) -> socket.socket:
    raise AssertionError(f"dialled {host}:{port}")


@pytest.mark.parametrize("body", [MANIFEST, MANIFEST.rstrip("\n")], ids=["as-published", "no-trailing-newline"])
def test_the_install_is_the_repair_and_what_lands_checks_clean(tmp_path: Path, body: str) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION, **WITHOUT_IT})
    assert codes.ARTEFACT_ABSENT in checked(root)
    with host(published(body)) as dial:
        code, out, err = install(root, dial, "--json", REF)
    digest = "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    assert (code, err) == (0, "")
    assert out == (
        f'{{"type":"manifest","path":"{MANIFEST_PATH}","digest":"{digest}"}}\n{{"type":"result","truncated":false}}\n'
    )
    written = (root / MANIFEST_PATH).read_text()
    assert written == f"{body.rstrip(chr(10))}\norigin:\n  ref: {REF}\n  digest: {digest}\n"
    assert checked(root) == []


def test_an_installed_manifest_edited_afterwards_is_caught_by_check(tmp_path: Path) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION, **WITHOUT_IT})
    with host(published(MANIFEST)) as dial:
        assert install(root, dial, REF)[0] == 0
    path = root / MANIFEST_PATH
    path.write_text(path.read_text().replace("deadline: 30s", "deadline: 31s", 1))
    assert checked(root) == [codes.ORIGIN_DIGEST_MISMATCH]


def test_a_body_that_stopped_part_way_did_not_arrive_and_nothing_is_written(tmp_path: Path) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION})
    serving_end: list[socket.socket] = []

    def cut_short(host: str, port: int, timeout: float | None) -> socket.socket:
        ours, theirs = socket.socketpair()
        serving_end.append(theirs)

        def answer() -> None:
            theirs.recv(65536)
            theirs.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\nkind: provider\n")
            theirs.close()

        threading.Thread(target=answer, daemon=True).start()
        return ours

    code, out, err = install(root, cast(Dialer, cut_short), REF)
    assert (code, out) == (1, "")
    assert err.startswith(f"hyper install: GET {REF}: ")
    assert err.endswith("the body stopped part-way: 15 of 4096 bytes arrived\n")
    assert not (root / "providers").exists()


def test_the_gate_refuses_before_any_dial(tmp_path: Path) -> None:
    root = write(tmp_path, {"hyper.yaml": DECLARATION.replace("1.4.0", "9.9.9")})
    code, out, err = install(root, cast(Dialer, never), REF)
    assert (code, out) == (77, "")
    assert err.startswith("refused: version-pin-mismatch\n")


def test_a_ref_outside_the_grammar_is_judged_before_the_repository(tmp_path: Path) -> None:
    process = fixed_process(str(tmp_path), {})._replace(dial=cast(Dialer, never))
    out, err = io.BytesIO(), io.BytesIO()
    code = main(["install", "http://providers.example.com/acme/dns.yaml"], out, err, process, FACTS)
    assert (code, out.getvalue()) == (2, b"")
    assert err.getvalue().startswith(b'hyper install: "http://providers.example.com/acme/dns.yaml" is not a ref: ')


def test_an_existing_file_is_replaced_whole(tmp_path: Path) -> None:
    block = f"origin:\n  ref: https://old.example.com/cloudflare-dns.yaml\n  digest: sha256:{'1' * 64}\n"
    stale = MANIFEST + block
    root = write(tmp_path, {"hyper.yaml": DECLARATION, MANIFEST_PATH: stale + "trailing: junk\n"})
    with host(published(MANIFEST)) as dial:
        assert install(root, dial, REF)[0] == 0
    assert (root / MANIFEST_PATH).read_text().count("origin:") == 1
    assert "old.example.com" not in (root / MANIFEST_PATH).read_text()
