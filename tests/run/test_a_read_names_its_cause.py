"""A read that halts on an answer that held nothing says why, on every surface (#17).

Here the answer is no answer: the peer's certificate is issued by an authority the dialer
does not trust, three times over under a retry Pattern. The corpus cannot drive a failed
verification (its one server is trusted), so this builds the fixture live."""

from __future__ import annotations

import json
import os
import socket
import ssl
from io import BytesIO
from pathlib import Path

from hyper.cli.main import dispatch, main
from hyper.cli.mcp import server
from hyper_mcp.driver import call_blocking
from tests.run.support import ECHO, FACTS, VERSION, Answered, build, process, scripts, serve

AUDIT = {
    "targets/fleet.yaml": (
        "kind: target-declaration\ntarget: fleet\nclass: fleet\nkinds: [read]\ncapabilities: [http]\n"
        "hosts: [api.fleet.example]\n"
    ),
    "providers/fleet.yaml": (
        "kind: provider\nprovider: fleet\nschema-version: 1\nclass: fleet\ncapabilities: [http]\n"
        "operations:\n  nodes:\n    kind: read\n    deadline: 20s\n    http:\n"
        '      method: GET\n      host: "{from-target}"\n      path: /nodes\n'
        "    patterns:\n      retry: {attempts: 3}\n"
        "    record:\n      over: $.body.result\n      identity: $.id\n      fields: {id: $.id}\n"
    ),
    "definitions/fleet-nodes.yaml": (
        "kind: definition\ndefinition: fleet-nodes\nprovider: fleet\nkinds: [read]\ntargets: [fleet]\n"
    ),
    "procedures/audit.yaml": (
        "kind: procedure\nprocedure: audit\ntargets: [fleet]\nsteps:\n"
        "  - id: nodes\n    definition: fleet-nodes\n    operation: nodes\n    target: fleet\n"
    ),
}

CAUSE = (
    "step nodes: the collection path $.body.result did not resolve, because no answer came back (after 3 attempts):"
    " GET https://api.fleet.example/nodes: the TLS handshake with api.fleet.example failed: the certificate"
    " api.fleet.example presented was issued by no authority this machine trusts (unknown issuer)"
)


def test_an_untrusted_peer_is_named_on_stderr_the_page_and_the_text_block(tmp_path: Path) -> None:
    root = build(tmp_path, AUDIT)
    bin_dir = scripts(tmp_path, echo=ECHO)
    with serve(tmp_path, lambda path: Answered(200, {"result": []})) as served:
        reached = served.dial("api.fleet.example", 443, 5.0)  # the listener itself, for its port
        port = reached.getpeername()[1]
        reached.close()

        def untrusting(host: str, _port: int, timeout: float | None) -> ssl.SSLSocket:
            raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            try:
                return ssl.create_default_context().wrap_socket(raw, server_hostname=host)
            except BaseException:
                raw.close()
                raise

        the_process = process(root, bin_dir, {"PATH": os.environ.get("PATH", os.defpath), "HYPER_REPO_DIR": str(root)})
        the_process = the_process._replace(dial=untrusting)
        out, err = BytesIO(), BytesIO()
        code = main(["run", "--repo-dir", str(root), "audit"], out, err, the_process, FACTS)
        call = json.dumps({"procedure": "audit"}).encode()
        answered = call_blocking(server(VERSION, dispatch(the_process, FACTS)), "run", call)
    assert code == 1
    assert f"hyper run: {CAUSE}\n" in err.getvalue().decode()
    assert f"\n{CAUSE}\n\nfailed · exit 1 · run " in out.getvalue().decode()
    assert answered.envelope is not None and answered.envelope.is_error
    assert answered.envelope.content[0].text.endswith(f"\n\nhyper run: {CAUSE}")
